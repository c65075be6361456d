import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useFetcher, useRevalidator } from 'react-router'
import { useHubEvent, useHubGroup, useHubReconnected } from '~/components/realtime'
import type { ChatMessage } from '#server/modules/chat/contract.ts'
import { roomGroup } from '#server/modules/chat/rules.ts'

// A room's messages in the browser: the loader's newest page, earlier pages loaded on demand, and
// what arrives live through the chat hub (decision 150: ReceiveMessage, typing, read to the room's
// group). Everything is merged by message id, so a message that comes both live and from a reload
// shows once. After a reconnect the loaders run again and bring what was missed.

export interface RoomPage {
  data: ChatMessage[]
  before: number | null
  myLastReadMessageId: number
  otherLastReadMessageId: number
}

const TYPING_SHOWN_MS = 5_000

const byId = (lists: ChatMessage[][]) => {
  const seen = new Map<number, ChatMessage>()
  for (const list of lists) for (const m of list) seen.set(m.id, m)
  return [...seen.values()].sort((a, b) => a.id - b.id)
}

export function useRoomMessages({
  roomId,
  me,
  otherId,
  page,
  live,
}: {
  roomId: number
  me: number
  otherId: number
  page: RoomPage
  live: boolean
}) {
  const [arrived, setArrived] = useState<ChatMessage[]>([])
  const [otherRead, setOtherRead] = useState(0)
  const [typingUntil, setTypingUntil] = useState(0)
  const earlier = useEarlierPages(roomId, page)
  const revalidator = useRevalidator()

  const add = useCallback(
    (message: ChatMessage) => {
      if (message.roomId !== roomId) return
      setArrived((list) => (list.some((m) => m.id === message.id) ? list : [...list, message]))
    },
    [roomId],
  )

  useHubGroup('chat', live ? roomGroup(roomId) : null)
  useHubEvent('chat', 'ReceiveMessage', (payload) => {
    const message = payload as ChatMessage
    if (!live || message?.roomId !== roomId) return
    add(message)
    if (message.senderId === otherId) setTypingUntil(0)
  })
  useHubEvent('chat', 'typing', (payload) => {
    const event = payload as { roomId: number; userId: number }
    if (event?.roomId === roomId && event.userId !== me) setTypingUntil(Date.now() + TYPING_SHOWN_MS)
  })
  useHubEvent('chat', 'read', (payload) => {
    const event = payload as { roomId: number; userId: number; lastReadMessageId: number }
    if (event?.roomId === roomId && event.userId !== me)
      setOtherRead((n) => Math.max(n, event.lastReadMessageId))
  })
  useHubReconnected('chat', () => void revalidator.revalidate())
  useRenderWhenTypingEnds(typingUntil)

  const messages = useMemo(
    () => byId([earlier.loaded, page.data, live ? arrived : []]),
    [earlier.loaded, page.data, arrived, live],
  )
  // The newest message not of my own (the other person's, or a system message): what there is to read.
  const newestFromOther = messages.findLast((m) => m.senderId !== me)?.id ?? 0
  useReadWhenSeen({ roomId, live, newestFromOther, myLastRead: page.myLastReadMessageId })

  return {
    messages,
    add,
    otherRead: Math.max(otherRead, page.otherLastReadMessageId),
    typing: typingUntil > Date.now(),
    before: earlier.before,
    loadEarlier: earlier.loadEarlier,
    loadingEarlier: earlier.loading,
  }
}

/**
 * Every page the loader brings stays loaded (a reload after new messages moves the newest page on,
 * and what it no longer holds must stay on screen), and earlier pages load on demand; the
 * earlier-pages cursor is the first page's, then each earlier page's.
 */
function useEarlierPages(roomId: number, page: RoomPage) {
  const [loaded, setLoaded] = useState<ChatMessage[]>([])
  const [before, setBefore] = useState<number | null>(page.before)
  const earlierFetcher = useFetcher<{ page: RoomPage }>({ key: `earlier-${roomId}` })
  useEffect(() => setLoaded((list) => byId([list, page.data])), [page.data])
  useEffect(() => {
    const older = earlierFetcher.data?.page
    if (!older) return
    setLoaded((list) => byId([older.data, list]))
    setBefore(older.before)
  }, [earlierFetcher.data])
  const loadEarlier = useCallback(() => {
    if (before === null || earlierFetcher.state !== 'idle') return
    earlierFetcher.load(`/chats/${roomId}?before=${before}`)
  }, [before, earlierFetcher, roomId])
  return { loaded, before, loadEarlier, loading: earlierFetcher.state !== 'idle' }
}

/** Typing stops showing a few seconds after the last signal: render again then. */
function useRenderWhenTypingEnds(typingUntil: number) {
  const [, tick] = useState(0)
  useEffect(() => {
    if (!typingUntil) return
    const timer = setTimeout(() => tick((n) => n + 1), Math.max(0, typingUntil - Date.now()) + 50)
    return () => clearTimeout(timer)
  }, [typingUntil])
}

/**
 * The other person's messages are read when they are on screen: at once while the page is in front
 * (live ones, and unread ones a reload brought), otherwise when the tab comes back.
 */
function useReadWhenSeen({
  roomId,
  live,
  newestFromOther,
  myLastRead,
}: {
  roomId: number
  live: boolean
  newestFromOther: number
  myLastRead: number
}) {
  const reader = useFetcher({ key: `read-${roomId}` })
  const markRead = useCallback(
    (upTo: number) =>
      reader.submit({ intent: 'read', upTo: String(upTo) }, { method: 'post', action: `/chats/${roomId}` }),
    [reader, roomId],
  )
  const readUpTo = useRef(0)
  readUpTo.current = Math.max(readUpTo.current, myLastRead)
  useEffect(() => {
    if (!live) return
    const check = () => {
      if (document.visibilityState !== 'visible' || newestFromOther <= readUpTo.current) return
      readUpTo.current = newestFromOther
      markRead(newestFromOther)
    }
    check()
    document.addEventListener('visibilitychange', check)
    return () => document.removeEventListener('visibilitychange', check)
  }, [live, newestFromOther, markRead])
}
