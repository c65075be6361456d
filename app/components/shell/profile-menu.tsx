import { LogoutForm } from './logout-form'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { menuFor } from '#server/modules/identity/permissions.ts'
import { Avatar } from '../ui/avatar'
import type { ShellUser } from './types'

// docs/product.md §2/§6: the profile-image menu, its links gated by permissions (one list, in identity's
// permissions module), and Logout (a POST, so no page can trigger it with a link).
export function ProfileMenu({ user }: { user: ShellUser }) {
  const { t } = useTranslation('shell')
  return (
    <details className="menu menu-end profile-menu" data-menu>
      <summary className="avatar-button" aria-label={t('profile.label', { name: user.name })}>
        <Avatar src={user.imageUrl} alt="" size={36} />
      </summary>
      <div className="menu-panel profile-panel">
        <p className="menu-heading profile-name">{user.name}</p>
        <AccountLinks roles={user.roles} />
      </div>
    </details>
  )
}

function AccountLinks({ roles }: { roles: number[] }) {
  const { t } = useTranslation(['shell', 'auth']) // the menu's labels are identity's (auth)
  return (
    <ul>
      {menuFor(roles).map((m) => (
        <li key={m.to}>
          <Link to={m.to} className="menu-item">
            {t(m.label, { ns: 'auth' })}
          </Link>
        </li>
      ))}
      <li>
        <LogoutForm buttonClassName="menu-item menu-item-danger" />
      </li>
    </ul>
  )
}
