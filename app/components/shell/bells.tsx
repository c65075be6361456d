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

// SPEC §2: the notification bell with its unread badge. Until the notifications issue adds the
// API, it renders its empty state. A <details> menu: opens without JavaScript and by keyboard.
export function NotificationBell({ unread = 0, items = [] }: { unread?: number; items?: BellItem[] }) {
  const { t } = useTranslation('shell')
  return (
    <details className="menu menu-end bell" data-menu>
      <summary className="icon-button" aria-label={t('bell.label', { count: unread })}>
        <BellIcon />
        <Badge count={unread} label={t('bell.unread', { count: unread })} />
      </summary>
      <div className="menu-panel bell-panel">
        <p className="menu-heading">{t('bell.title')}</p>
        {items.length === 0 ? (
          <p className="empty-state">{t('bell.empty')}</p>
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
      </div>
    </details>
  )
}

// SPEC §2: the messages icon with its unread count; empty state until the chat issue lands.
export function MessagesMenu({ unread = 0, items = [] }: { unread?: number; items?: BellItem[] }) {
  const { t } = useTranslation('shell')
  return (
    <details className="menu menu-end messages" data-menu>
      <summary className="icon-button" aria-label={t('messages.label', { count: unread })}>
        <ChatIcon />
        <Badge count={unread} label={t('messages.unread', { count: unread })} />
      </summary>
      <div className="menu-panel bell-panel">
        <p className="menu-heading">{t('messages.title')}</p>
        {items.length === 0 ? (
          <p className="empty-state">{t('messages.empty')}</p>
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
        <Link to="/chats" className="menu-footer-link">
          {t('messages.all')}
        </Link>
      </div>
    </details>
  )
}
