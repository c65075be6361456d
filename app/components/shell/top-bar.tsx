import { Kept } from '~/lib/kept-markup'
import { Link } from '~/lib/link'
import { timeAgo } from '~/lib/time-ago'
import { useTranslation } from '~/lib/use-translation'
import { topBarOf } from '../../../server/modules/identity/permissions'
import { NotificationBell, MessagesMenu, type BellView } from './bells'
import type { BellData, MessagesData } from './bells.server'
import { RealtimeIndicator } from '../realtime'
import { LanguageSwitcher } from './language-switcher'
import { MegaMenu } from './mega-menu'
import { ProfileMenu } from './profile-menu'
import { SearchBox } from './search-box'
import { SideMenu } from './side-menu'
import type { ShellCategory, ShellUser } from './types'

export type TopBarVariant = 'home' | 'visitor' | 'freelancer' | 'client'

/** SPEC §4: the Freelancer role gives the freelancer bar, any other signed-in user the client bar; visitors get the home bar on '/' and the not-home bar elsewhere. */
export function topBarVariant(user: ShellUser | null, pathname: string): TopBarVariant {
  const bar = topBarOf(user?.roles)
  if (bar === 'visitor') return pathname === '/' ? 'home' : 'visitor'
  return bar
}

function Brand() {
  const { t } = useTranslation()
  return (
    <Link to="/" className="brand" aria-label={t('app.homeLink')}>
      <img src="/logo.svg" alt="" width="30" height="30" />
      <span>Workneer</span>
    </Link>
  )
}

/**
 * The top bar is kept as HTML for what it shows (decision 280): the reader, the menus' categories,
 * and the bell's and messages menu's items with their relative times as worded now ("5 minutes
 * ago"), so a kept bar is never older than what it says. When a bar is rendered to be kept, the
 * menus inside it that are kept on their own elsewhere (decision 274) are rendered in place with it.
 */
export function TopBar({
  user,
  categories,
  pathname,
  bell = null,
  messages = null,
}: {
  user: ShellUser | null
  categories: ShellCategory[]
  pathname: string
  bell?: BellData | null
  messages?: MessagesData | null
}) {
  const { i18n } = useTranslation('shell')
  const variant = topBarVariant(user, pathname)
  const bellNow: BellView | null = bell && {
    ...bell,
    items: bell.items.map((n) => ({ ...n, ago: timeAgo(n.createdDate, i18n.language) })),
  }
  return (
    <Kept
      as="header"
      className={`topbar topbar-${variant}`}
      data-topbar={variant}
      component={TopBarContent}
      props={{ user, categories, variant, bell: bellNow, messages }}
    />
  )
}

function TopBarContent({
  user,
  categories,
  variant,
  bell,
  messages,
}: {
  user: ShellUser | null
  categories: ShellCategory[]
  variant: TopBarVariant
  bell: BellView | null
  messages: MessagesData | null
}) {
  const { t } = useTranslation('shell')
  return (
    <div className="container topbar-inner">
      <SideMenu user={user} categories={categories} />
      <Brand />
      {user ? (
        <>
          <div className="topbar-search">
            <SearchBox defaultType={variant === 'freelancer' ? 'projects' : 'workneerer'} />
          </div>
          <nav className="topbar-actions" aria-label={t('nav.primary')}>
            {variant === 'freelancer' ? (
              <Link to="/projects/getprojects" className="button button-accent topbar-cta">
                {t('nav.findProject')}
              </Link>
            ) : (
              <Link to="/projects/create" className="button button-accent topbar-cta">
                {t('nav.createProject')}
              </Link>
            )}
            <RealtimeIndicator />
            <NotificationBell bell={bell} />
            <MessagesMenu messages={messages} />
            <LanguageSwitcher variant="bar" />
            <ProfileMenu user={user} />
          </nav>
        </>
      ) : (
        <>
          <nav className="topbar-nav" aria-label={t('nav.primary')}>
            <MegaMenu categories={categories} />
            <Link to="/why-workneer" className="topbar-link">
              {t('nav.why')}
            </Link>
            <Link to="/blogs" className="topbar-link">
              {t('nav.blog')}
            </Link>
          </nav>
          <div className="topbar-actions">
            <LanguageSwitcher variant="bar" />
            <Link to="/auth/login" className="button button-ghost topbar-login">
              {t('nav.login')}
            </Link>
            <Link to="/auth/gotosign" className="button button-accent">
              {t('nav.signUp')}
            </Link>
          </div>
        </>
      )}
    </div>
  )
}
