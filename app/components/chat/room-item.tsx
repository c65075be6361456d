import { useTranslation } from '~/lib/translations'
import { timeAgo } from '~/lib/time-ago'
import { imageSrc } from '~/lib/image-src'
import { ConversationItem } from '~/components/ui/conversation'
import type { ChatRoom } from '#server/modules/chat/contract.ts'

// One chat room in a list: the chat list page (/chats) and the top bar's messages menu.

/** When a room last had a message (or was opened): the time the list shows. */
export const roomTime = (room: ChatRoom) => room.lastMessage?.createdAt ?? room.lastActivityAt

/** What a room's last message says in a list: "You: …" for one's own, a file's name when it had no text. */
function preview(room: ChatRoom, t: (key: string, options?: Record<string, unknown>) => string) {
  const last = room.lastMessage
  if (!last) return t('list.noMessagesYet')
  const text =
    last.text || (last.attachments[0] ? t('list.attachment', { name: last.attachments[0].name }) : '')
  return last.senderId !== null && last.senderId !== room.other.id ? t('list.you', { text }) : text
}

/** One room in the chat list or the messages menu; `ago`, the server's words for its last message's age. */
export function RoomItem({
  room,
  compact = false,
  ago,
}: {
  room: ChatRoom
  compact?: boolean
  ago?: string
}) {
  const { t, i18n } = useTranslation('chat')
  const at = roomTime(room)
  return (
    <ConversationItem
      href={`/chats/${room.id}`}
      name={room.other.name}
      imageUrl={imageSrc(room.other.imageUrl)}
      context={room.project.title}
      preview={preview(room, t)}
      time={
        compact ? undefined : (
          <time dateTime={at} suppressHydrationWarning>
            {ago ?? timeAgo(at, i18n.language)}
          </time>
        )
      }
      unread={room.unreadCount}
      unreadLabel={t('list.unread', { count: room.unreadCount })}
      data-testid="room"
      data-room={room.id}
    />
  )
}
