import { LogoutForm } from './logout-form'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { menuFor } from '#server/modules/identity/permissions.ts'
import { MenuIcon } from '../ui/icons'
import { categoryHref } from './mega-menu'
import { companyPages, type ShellCategory, type ShellUser } from './types'

// The mobile side menu (docs/product.md §2): a <details> whose panel slides in from the side, so it opens
// without JavaScript; the same links as the desktop bar.
export function SideMenu({ user, categories }: { user: ShellUser | null; categories: ShellCategory[] }) {
  const { t } = useTranslation(['shell', 'auth']) // the menu's labels are identity's (auth)
  const roles = user?.roles ?? null
  return (
    <details className="menu sidemenu" data-menu>
      <summary className="icon-button" aria-label={t('nav.openMenu')}>
        <MenuIcon />
      </summary>
      <nav className="sidemenu-panel" aria-label={t('nav.menuTitle')}>
        {roles ? (
          <ul>
            {menuFor(roles).map((m) => (
              <li key={m.to}>
                <Link to={m.to}>{t(m.label, { ns: 'auth' })}</Link>
              </li>
            ))}
            <li>
              <LogoutForm buttonClassName="link-button" />
            </li>
          </ul>
        ) : (
          <p className="sidemenu-actions">
            <Link to="/auth/login" className="button button-ghost">
              {t('nav.login')}
            </Link>
            <Link to="/auth/gotosign" className="button">
              {t('nav.signUp')}
            </Link>
          </p>
        )}
        <p className="sidemenu-heading">{t('nav.categories')}</p>
        <ul>
          {categories.map((c) => (
            <li key={c.id}>
              <Link to={categoryHref(c.name)}>{c.name}</Link>
            </li>
          ))}
        </ul>
        <p className="sidemenu-heading">Workneer</p>
        <ul>
          {companyPages.map((p) => (
            <li key={p.to}>
              <Link to={p.to}>{t(p.label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  )
}
