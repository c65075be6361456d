import type { RouterContextProvider } from 'react-router'
import { apiFor, isThrownAnswer } from '~/lib/api.server'
import {
  notificationsContract as c,
  NOTIFICATION_PAGE,
  type Notification,
} from '#server/modules/notifications/contract.ts'
import { chatContract, type ChatRoom } from '#server/modules/chat/contract.ts'
import { getLocale } from '~/middleware/i18next'
import { timeAgo } from '~/lib/time-ago'

/** How many notifications the bell shows: `?bell=20` after "load more" (a link, so it works without JavaScript). */
export const BELL_PARAM = 'bell'
const MAX_SHOWN = 100

export interface BellData {
  unread: number
  /** Each with its age worded by the server ("5 minutes ago"), see `ago`. */
  items: Array<Notification & { ago: string }>
  /** The address that shows the next 10 (null when the last page was not full). */
  moreHref: string | null
  /** True after "load more", so the menu renders open. */
  expanded: boolean
}

// The bell's data for the layout loader: the unread count and the newest notifications, 10 per
// page up to what the URL asks for. A failure leaves the bell empty rather than the page broken.
export async function bellData(context: Readonly<RouterContextProvider>, url: URL): Promise<BellData> {
  const asked = Number(url.searchParams.get(BELL_PARAM))
  const shown =
    Number.isInteger(asked) && asked > NOTIFICATION_PAGE
      ? Math.min(MAX_SHOWN, Math.ceil(asked / NOTIFICATION_PAGE) * NOTIFICATION_PAGE)
      : NOTIFICATION_PAGE
  try {
    const api = apiFor(context)
    const hands = Array.from({ length: shown / NOTIFICATION_PAGE }, (_, i) => i * NOTIFICATION_PAGE)
    // Each page of the list carries the unread count: no call of its own for it.
    const pages = await Promise.all(hands.map((hand) => api.call(c.list, { query: { hand } })))
    const items = withAges(
      context,
      pages.flatMap((p) => p.data),
    )
    const full = items.length === shown && shown < MAX_SHOWN
    const next = new URL(url)
    next.searchParams.set(BELL_PARAM, String(shown + NOTIFICATION_PAGE))
    return {
      unread: pages[0]!.unreadCount,
      items,
      moreHref: full ? next.pathname + next.search : null,
      expanded: url.searchParams.has(BELL_PARAM),
    }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    return { unread: 0, items: [], moreHref: null, expanded: false }
  }
}

/**
 * Each item's age in words ("5 minutes ago"), by id, worded here and not in the browser: the first
 * Intl.RelativeTimeFormat a page builds costs some 20 ms of the main thread while it hydrates (decision 358).
 */
export function agesById<T extends { id: number }>(
  context: Readonly<RouterContextProvider>,
  items: T[],
  timeOf: (item: T) => string,
): Record<number, string> {
  const locale = getLocale(context)
  const now = Date.now()
  return Object.fromEntries(items.map((item) => [item.id, timeAgo(timeOf(item), locale, now)]))
}

/** Notifications, each with its age worded by the server (`agesById`). */
export function withAges(context: Readonly<RouterContextProvider>, notifications: Notification[]) {
  const ago = agesById(context, notifications, (n) => n.createdDate)
  return notifications.map((n) => ({ ...n, ago: ago[n.id]! }))
}

export interface MessagesData {
  /** Rooms with unread messages (the icon's count). */
  unread: number
  /** The latest rooms, most recent first. */
  rooms: ChatRoom[]
}

/** How many rooms the messages menu lists; "Open all chats" leads to the rest. */
export const MENU_ROOMS = 5

// The messages menu's data for the layout loader: the count of rooms with unread messages and the
// latest rooms. A countChat from the chat hub reloads it. A failure leaves the menu empty.
export async function messagesData(context: Readonly<RouterContextProvider>): Promise<MessagesData> {
  try {
    // One call (one query): the list's answer carries the icon's count too.
    const rooms = await apiFor(context).call(chatContract.rooms, {
      params: { page: 1 },
      query: { pageSize: MENU_ROOMS },
    })
    return { unread: rooms.roomsWithUnread, rooms: rooms.data }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    return { unread: 0, rooms: [] }
  }
}
