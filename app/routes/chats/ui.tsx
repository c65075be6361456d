import { useTranslation } from '~/lib/translations'
import { linkify } from '~/lib/linkify'
import { useWords, type Wording } from '~/lib/words'
import { MessageBubble } from '~/components/ui/conversation'
import type { ChatMessage } from '#server/modules/chat/contract.ts'

// The pieces of the chat screens: a message's text and attachments, one message, one room in a list.

/** A message's text: plain text nodes, with web addresses made links. Never HTML. */
export function MessageText({ text }: { text: string }) {
  return (
    <>
      {linkify(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} rel="noopener noreferrer nofollow ugc" target="_blank">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  )
}

/** The page path of an attachment: the API's download through the site, with the session's token. */
export const attachmentHref = (fileId: number) => `/chats/files/${fileId}`

const KINDS = { 1: 'image', 2: 'video', 3: 'audio', 4: 'document' } as const
/** docs/product.md §3: 1 image, 2 video, 3 audio, 4 document; anything else shows as an image. */
export const attachmentKind = (type: number) => KINDS[type as keyof typeof KINDS] ?? 'image'

// Pictures browsers cannot show (TIFF, BPG) are offered as downloads only.
const notShown = /^image\/(tiff|bpg)\b/

/** The times and file sizes `MessageItem`s show, for their page's loader to word (a live message is worded in the browser). */
export function wordMessages(words: Wording, messages: readonly ChatMessage[]) {
  for (const m of messages) {
    words.date(m.createdAt, 'dateTime')
    for (const file of m.attachments) words.fileSize(file.size)
  }
}

/** An attachment: a picture, a player or nothing, then its name to download with its kind and size. */
function Attachment({ file }: { file: ChatMessage['attachments'][number] }) {
  const { t } = useTranslation('chat')
  const words = useWords()
  const href = attachmentHref(file.id)
  const kind = attachmentKind(file.attachmentType)
  return (
    <span className="ui-attachment" data-testid="attachment" data-kind={kind}>
      {kind === 'image' && !notShown.test(file.mime) ? (
        <img src={href} alt={file.name} loading="lazy" />
      ) : null}
      {kind === 'video' ? <video src={href} controls preload="metadata" aria-label={file.name} /> : null}
      {kind === 'audio' ? <audio src={href} controls preload="metadata" aria-label={file.name} /> : null}
      <span>
        <a href={href} download={file.name}>
          <span className="visually-hidden">{t('attachment.download', { name: file.name })}</span>
          <span aria-hidden="true">{file.name}</span>
        </a>{' '}
        <span className="muted small">{`${t(`attachment.${kind}`)} · ${words.fileSize(file.size)}`}</span>
      </span>
    </span>
  )
}

/** One message on the sender's side, with its time and, for one's own, whether the other has read it. */
export function MessageItem({
  message: m,
  mine,
  otherName,
  read,
  pending = false,
}: {
  message: ChatMessage
  mine: boolean
  otherName: string
  read: boolean
  pending?: boolean
}) {
  const { t } = useTranslation('chat')
  const words = useWords()
  const system = m.kind === 'system'
  const side = system ? 'system' : mine ? 'mine' : 'theirs'
  const state = pending ? 'sending' : read ? 'read' : 'sent'
  const footer = (
    <>
      <time dateTime={m.createdAt}>{words.date(m.createdAt, 'dateTime')}</time>
      {mine && !system ? (
        <>
          {' · '}
          <span data-testid="read-state">{t(`room.${state}`)}</span>
        </>
      ) : null}
    </>
  )
  return (
    <MessageBubble
      side={side}
      id={`m-${m.id}`}
      author={system ? t('room.system') : mine ? t('room.you') : otherName}
      footer={footer}
      data-testid="message"
      data-message={m.id}
      data-state={mine ? state : undefined}
    >
      {m.text ? <MessageText text={m.text} /> : null}
      {m.attachments.map((file) => (
        <Attachment key={file.id} file={file} />
      ))}
    </MessageBubble>
  )
}
