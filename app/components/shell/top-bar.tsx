import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { can, topBarOf } from '#server/modules/identity/permissions.ts'
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

/**
 * The bar's button: Find Project on the freelancer bar; on the client bar, Create Project for those
 * who may post one, and the admin area for a SuperAdmin, who may not (issue 39: gated by permission).
 */
export function callToAction(variant: TopBarVariant, roles: readonly number[]) {
  if (variant === 'freelancer') return { to: '/projects/getprojects', label: 'shell:nav.findProject' }
  if (can(roles, 'projects.create')) return { to: '/projects/create', label: 'shell:nav.createProject' }
  if (can(roles, 'admin.area')) return { to: '/admin', label: 'auth:menu.administration' }
  return null
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
  const action = callToAction(variant, user.roles)
  return (
    <>
      <div className="topbar-search">
        <SearchBox defaultType={variant === 'freelancer' ? 'projects' : 'workneerer'} />
      </div>
      <nav className="topbar-actions" aria-label={t('nav.primary')}>
        {action ? (
          <Link to={action.to} className="button button-accent topbar-cta">
            {t(action.label)}
          </Link>
        ) : null}
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
