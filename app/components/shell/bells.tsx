import { Link } from 'react-router'
import { useTranslation } from 'react-i18next'
import { BellIcon, ChatIcon } from '../ui/icons'

export interface BellItem {
  id: number | string
  title: string
  content?: string
  isRead: boolean
  href: string
}

function Badge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null
  return (
    <span className="badge" aria-label={label}>
      {count > 99 ? '99+' : count}
    </span>
  )
}

// The bell and the messages icon are one kind of menu: an icon with an unread badge and a list of
// items, with an empty state until the notifications and chat issues add their APIs. A <details>
// menu: opens without JavaScript and by keyboard.
function InboxMenu({ kind, icon, unread, items, footer }: { kind: 'bell' | 'messages'; icon: React.ReactNode; unread: number; items: BellItem[]; footer?: React.ReactNode }) {
  const { t } = useTranslation('shell')
  return (
    <details className={`menu menu-end ${kind}`} data-menu>
      <summary className="icon-button" aria-label={t(`${kind}.label`, { count: unread })}>
        {icon}
        <Badge count={unread} label={t(`${kind}.unread`, { count: unread })} />
      </summary>
      <div className="menu-panel bell-panel">
        <p className="menu-heading">{t(`${kind}.title`)}</p>
        {items.length === 0 ? (
          <p className="empty-state">{t(`${kind}.empty`)}</p>
        ) : (
          <ul className="bell-list">
            {items.map((n) => (
              <li key={n.id} className={n.isRead ? '' : 'unread'}>
                <Link to={n.href}>
                  <strong>{n.title}</strong>
                  {n.content ? <span>{n.content}</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
        {footer}
      </div>
    </details>
  )
}

// SPEC §2: the notification bell with its unread badge.
export function NotificationBell({ unread = 0, items = [] }: { unread?: number; items?: BellItem[] }) {
  return <InboxMenu kind="bell" icon={<BellIcon />} unread={unread} items={items} />
}

// SPEC §2: the messages icon with its unread count, and a link to all chats.
export function MessagesMenu({ unread = 0, items = [] }: { unread?: number; items?: BellItem[] }) {
  const { t } = useTranslation('shell')
  const footer = (
    <Link to="/chats" className="menu-footer-link">
      {t('messages.all')}
    </Link>
  )
  return <InboxMenu kind="messages" icon={<ChatIcon />} unread={unread} items={items} footer={footer} />
}
