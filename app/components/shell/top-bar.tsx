import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { topBarOf } from '#server/modules/identity/permissions.ts'
import { NotificationBell, MessagesMenu } from './bells'
import type { BellData, MessagesData } from './bells.server'
import { RealtimeIndicator } from '../realtime'
import { LanguageSwitcher } from './language-switcher'
import { MegaMenu } from './mega-menu'
import { ProfileMenu } from './profile-menu'
import { SearchBox } from './search-box'
import { SideMenu } from './side-menu'
import type { ShellCategory, ShellUser } from './types'

export type TopBarVariant = 'home' | 'visitor' | 'freelancer' | 'client'

/** docs/product.md §4: the Freelancer role gives the freelancer bar, any other signed-in user the client bar; visitors get the home bar on '/' and the not-home bar elsewhere. */
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

/** The top bar of docs/product.md §4: its variant follows the reader (see topBarVariant). */
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
  const variant = topBarVariant(user, pathname)
  return (
    <header className={`topbar topbar-${variant}`} data-topbar={variant}>
      <div className="container topbar-inner">
        <SideMenu user={user} categories={categories} />
        <Brand />
        {user ? (
          <SignedInBar user={user} variant={variant} bell={bell} messages={messages} />
        ) : (
          <VisitorBar categories={categories} />
        )}
      </div>
    </header>
  )
}

function SignedInBar({
  user,
  variant,
  bell,
  messages,
}: {
  user: ShellUser
  variant: TopBarVariant
  bell: BellData | null
  messages: MessagesData | null
}) {
  const { t } = useTranslation('shell')
  return (
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
  )
}

function VisitorBar({ categories }: { categories: ShellCategory[] }) {
  const { t } = useTranslation('shell')
  return (
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
  )
}
