import { useEffect, useRef, useState } from 'react'
import { useLocation, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { BellIcon, ChatIcon } from '../ui/icons'
import { useHubEvent } from '../realtime'
import { timeAgo } from '~/lib/time-ago'
import type { BellData, MessagesData } from './bells.server'
import { RoomItem } from '../chat/room-item'
import type { Notification } from '#server/modules/notifications/contract.ts'

function Badge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null
  return (
    <span className="badge" aria-label={label}>
      {count > 99 ? '99+' : count}
    </span>
  )
}

// The bell and the messages icon are one kind of menu: an icon with an unread badge and a list of
// items, or an empty state. A <details> menu: opens without JavaScript and by keyboard.
function InboxMenu({
  kind,
  icon,
  unread,
  children,
  empty,
  footer,
  open,
  menuRef,
}: {
  kind: 'bell' | 'messages'
  icon: React.ReactNode
  unread: number
  children: React.ReactNode
  empty: boolean
  footer?: React.ReactNode
  open?: boolean
  menuRef?: React.Ref<HTMLDetailsElement>
}) {
  const { t } = useTranslation('shell')
  return (
    <details className={`menu menu-end ${kind}`} data-menu open={open || undefined} ref={menuRef}>
      <summary className="icon-button" aria-label={t(`${kind}.label`, { count: unread })}>
        {icon}
        <Badge count={unread} label={t(`${kind}.unread`, { count: unread })} />
      </summary>
      <div className="menu-panel bell-panel">
        <p className="menu-heading">{t(`${kind}.title`)}</p>
        {empty ? (
          <p className="empty-state">{t(`${kind}.empty`)}</p>
        ) : (
          <ul className="bell-list">{children}</ul>
        )}
        {footer}
      </div>
    </details>
  )
}

/**
 * One notification: a form that marks it read and goes where it leads (notifications-read.tsx), so
 * it works without JavaScript. `ago` is its age as the server worded it; without it (an alert the
 * hub pushed) the browser words it.
 */
export function NotificationEntry({ n, ago }: { n: Notification; ago?: string }) {
  const { t, i18n } = useTranslation('notifications')
  return (
    <Form method="post" action={`/notifications/${n.id}/read`}>
      <button type="submit" className="bell-item">
        <strong>{n.title}</strong>
        {n.content ? <span>{n.content}</span> : null}
        <small>
          {n.isRead ? null : <span className="visually-hidden">{t('unread')} · </span>}
          <time dateTime={n.createdDate} suppressHydrationWarning>
            {ago ?? timeAgo(n.createdDate, i18n.language)}
          </time>
        </small>
      </button>
    </Form>
  )
}

/** "Mark all as read": a form posting to notifications-read-all.tsx, which comes back to this page. */
export function MarkAllRead({ className }: { className?: string }) {
  const { t } = useTranslation('notifications')
  const { pathname, search } = useLocation()
  return (
    <Form method="post" action="/notifications/read-all" className={className}>
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <button type="submit" className="link-button">
        {t('markAllRead')}
      </button>
    </Form>
  )
}

const KEPT_ALERTS = 20

/** The alert item of docs/product.md §3 as the hub pushes it (ReceiveNotification), or null for anything else. */
function alertItem(message: unknown, receivedAt: Date): Notification | null {
  const a = message as Partial<Notification> | null
  if (!a || typeof a.id !== 'number' || typeof a.title !== 'string') return null
  return {
    id: a.id,
    title: a.title,
    content: String(a.content ?? ''),
    isRead: a.isRead === true,
    createdDate: receivedAt.toISOString(),
    senderImage: null,
    roomId: null,
    projectId: typeof a.projectId === 'number' ? a.projectId : null,
    type: a.type ?? 'Project',
  }
}

// Alerts the hub pushes arrive before the loaders have them (the countNotify that follows reloads
// the bell 250 ms later, or not at all if the page cannot reach the API): show them at once, above
// what the loader listed. An id above the newest loaded one is not in the loader's count or list
// yet; once a reload brings it, the loader's copy (read or not) is the one shown.
function useArrivedAlerts(newestLoaded: number) {
  const [arrived, setArrived] = useState<Notification[]>([])
  useHubEvent('notifications', 'ReceiveNotification', (message) => {
    const alert = alertItem(message, new Date())
    if (alert)
      setArrived((list) =>
        list.some((n) => n.id === alert.id) ? list : [alert, ...list].slice(0, KEPT_ALERTS),
      )
  })
  return arrived.filter((n) => n.id > newestLoaded).sort((a, b) => b.id - a.id)
}

// docs/product.md §2/§4: the notification bell. Its data comes from the layout loader (bells.server.ts), so
// the count and the list are server-rendered; a countNotify from the hub reloads the loaders (a
// read in another tab sends one too), and alert items the hub pushes show at once. Each item is a
// form that marks it read and goes to its target; unread items have the grey background. "Load
// more" is a link that asks the loader for 10 more; "See all" opens the notifications page.
export function NotificationBell({ bell }: { bell: BellData | null }) {
  const { t } = useTranslation(['notifications', 'shell'])
  const loaded = bell?.items ?? []
  const arrived = useArrivedAlerts(loaded.reduce((max, n) => Math.max(max, n.id), 0))
  const items: Array<Notification & { ago?: string }> = [...arrived, ...loaded]
  const count = (bell?.unread ?? 0) + arrived.filter((n) => !n.isRead).length
  const firstOfLastPage = Math.floor((loaded.length - 1) / 10) * 10
  const menu = useRef<HTMLDetailsElement>(null)
  const { key } = useLocation()
  const expanded = bell?.expanded ?? false
  // With JavaScript, "load more" is a client navigation after which the shell closes its menus;
  // reopen the bell once that has run and put focus on the first of the new items.
  useEffect(() => {
    if (!expanded) return
    queueMicrotask(() => {
      if (!menu.current) return
      menu.current.open = true
      menu.current.querySelector<HTMLButtonElement>('[data-page-start] button')?.focus()
    })
  }, [key, expanded])
  const footer = (
    <div className="menu-footer">
      {count > 0 ? <MarkAllRead className="menu-footer-link" /> : null}
      {bell?.moreHref ? (
        <Link to={bell.moreHref} className="menu-footer-link" preventScrollReset>
          {t('loadMore', { ns: 'notifications' })}
        </Link>
      ) : null}
      <Link to="/notifications" className="menu-footer-link">
        {t('seeAll', { ns: 'notifications' })}
      </Link>
    </div>
  )
  return (
    <>
      <InboxMenu
        kind="bell"
        icon={<BellIcon />}
        unread={count}
        empty={items.length === 0}
        footer={footer}
        open={expanded}
        menuRef={menu}
      >
        {items.map((n, i) => (
          <li
            key={n.id}
            className={n.isRead ? '' : 'unread'}
            data-testid="notification"
            data-page-start={(i > 0 && i === firstOfLastPage + arrived.length) || undefined}
          >
            <NotificationEntry n={n} ago={n.ago} />
          </li>
        ))}
      </InboxMenu>
      {/* Screen readers hear of an alert as it arrives, whether the menu is open or not. */}
      <p className="visually-hidden" role="status" data-testid="notification-arrived">
        {arrived[0] ? t('arrived', { ns: 'notifications', title: arrived[0].title }) : ''}
      </p>
    </>
  )
}

// docs/product.md §2: the messages icon with the count of rooms with unread messages, the latest rooms and a
// link to all chats. Its data comes from the layout loader (bells.server.ts); a countChat from the
// chat hub reloads it (app/components/realtime.tsx).
export function MessagesMenu({ messages }: { messages: MessagesData | null }) {
  const { t } = useTranslation(['shell', 'chat'])
  const rooms = messages?.rooms ?? []
  const footer = (
    <Link to="/chats" className="menu-footer-link">
      {t('messages.all', { ns: 'shell' })}
    </Link>
  )
  return (
    <InboxMenu
      kind="messages"
      icon={<ChatIcon />}
      unread={messages?.unread ?? 0}
      empty={rooms.length === 0}
      footer={footer}
    >
      {rooms.map((room) => (
        <RoomItem key={room.id} room={room} compact />
      ))}
    </InboxMenu>
  )
}
