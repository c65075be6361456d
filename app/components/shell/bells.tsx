import { useEffect, useRef } from 'react'
import { Form, Link, useLocation, useRouteLoaderData } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import { BellIcon, ChatIcon } from '../ui/icons'
import { timeAgo } from '~/lib/time-ago'
import type { BellData } from './bells.server'

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
// items, or an empty state. A <details> menu: opens without JavaScript and by keyboard.
function InboxMenu({ kind, icon, unread, children, empty, footer, open, menuRef }: { kind: 'bell' | 'messages'; icon: React.ReactNode; unread: number; children: React.ReactNode; empty: boolean; footer?: React.ReactNode; open?: boolean; menuRef?: React.Ref<HTMLDetailsElement> }) {
  const { t } = useTranslation('shell')
  return (
    <details className={`menu menu-end ${kind}`} data-menu open={open || undefined} ref={menuRef}>
      <summary className="icon-button" aria-label={t(`${kind}.label`, { count: unread })}>
        {icon}
        <Badge count={unread} label={t(`${kind}.unread`, { count: unread })} />
      </summary>
      <div className="menu-panel bell-panel">
        <p className="menu-heading">{t(`${kind}.title`)}</p>
        {empty ? <p className="empty-state">{t(`${kind}.empty`)}</p> : <ul className="bell-list">{children}</ul>}
        {footer}
      </div>
    </details>
  )
}

// SPEC §2/§4: the notification bell. Its data comes from the layout loader (bells.server.ts), so
// the count and the list are server-rendered; a countNotify from the hub reloads the loaders. Each
// item is a form that marks it read and goes to its target (notifications-read.tsx); unread items
// have the grey background. "Load more" is a link that asks the loader for 10 more.
export function NotificationBell({ unread = 0 }: { unread?: number }) {
  const { t, i18n } = useTranslation(['notifications', 'shell'])
  const bell = useRouteLoaderData<{ bell?: BellData | null }>('routes/layout')?.bell
  const items = bell?.items ?? []
  const firstOfLastPage = Math.floor((items.length - 1) / 10) * 10
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
  const more = bell?.moreHref ? (
    <Link to={bell.moreHref} className="menu-footer-link" preventScrollReset>
      {t('loadMore', { ns: 'notifications' })}
    </Link>
  ) : null
  return (
    <InboxMenu kind="bell" icon={<BellIcon />} unread={bell?.unread ?? unread} empty={items.length === 0} footer={more} open={expanded} menuRef={menu}>
      {items.map((n, i) => (
        <li key={n.id} className={n.isRead ? '' : 'unread'} data-testid="notification" data-page-start={(i > 0 && i === firstOfLastPage) || undefined}>
          <Form method="post" action={`/notifications/${n.id}/read`}>
            <button type="submit" className="bell-item">
              <strong>{n.title}</strong>
              {n.content ? <span>{n.content}</span> : null}
              <small>
                {n.isRead ? null : <span className="visually-hidden">{t('unread', { ns: 'notifications' })} · </span>}
                <time dateTime={n.createdDate} suppressHydrationWarning>{timeAgo(n.createdDate, i18n.language)}</time>
              </small>
            </button>
          </Form>
        </li>
      ))}
    </InboxMenu>
  )
}

// SPEC §2: the messages icon with its unread count, and a link to all chats.
export function MessagesMenu({ unread = 0, items = [] }: { unread?: number; items?: BellItem[] }) {
  const { t } = useTranslation('shell')
  const footer = (
    <Link to="/chats" className="menu-footer-link">
      {t('messages.all')}
    </Link>
  )
  return (
    <InboxMenu kind="messages" icon={<ChatIcon />} unread={unread} empty={items.length === 0} footer={footer}>
      {items.map((n) => (
        <li key={n.id} className={n.isRead ? '' : 'unread'}>
          <Link to={n.href}>
            <strong>{n.title}</strong>
            {n.content ? <span>{n.content}</span> : null}
          </Link>
        </li>
      ))}
    </InboxMenu>
  )
}
