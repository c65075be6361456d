import type React from 'react'
import { Link } from 'react-router'
import { Avatar } from './avatar'

// Conversations in the design system: a list of them (the chat list, the messages menu) and the
// messages of one (the room). Every chat screen composes these; the look lives in ui.css (ui-chat-*).

/** One conversation in a list: the other person's image and name, a line about it, the last message, its time and unread count. */
export function ConversationItem({
  href,
  name,
  imageUrl,
  context,
  preview,
  time,
  unread,
  unreadLabel,
  ...rest
}: {
  href: string
  name: string
  imageUrl?: string | null
  context?: React.ReactNode
  preview: React.ReactNode
  time?: React.ReactNode
  unread: number
  unreadLabel: string
  'data-testid'?: string
  'data-room'?: number
}) {
  return (
    <li className={`ui-chat-item${unread > 0 ? ' ui-chat-item-unread' : ''}`} {...rest}>
      <Link to={href} className="ui-chat-item-link">
        <Avatar src={imageUrl} alt="" size={44} />
        <span className="ui-chat-item-body">
          <span className="ui-chat-item-top">
            <span className="ui-chat-item-name">{name}</span>
            {time ? <span className="ui-chat-item-time">{time}</span> : null}
          </span>
          {context ? <span className="ui-chat-item-context">{context}</span> : null}
          <span className="ui-chat-item-bottom">
            <span className="ui-chat-item-preview">{preview}</span>
            {unread > 0 ? (
              <span className="ui-chat-count" data-testid="room-unread" aria-label={unreadLabel}>
                {unread > 99 ? '99+' : unread}
              </span>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  )
}

export function ConversationList({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <ul className="ui-chat-list" aria-label={label}>
      {children}
    </ul>
  )
}

export type BubbleSide = 'mine' | 'theirs' | 'system'

/** One message: a bubble on the sender's side (system messages centred), its content, then its time and state. */
export function MessageBubble({
  side,
  author,
  children,
  footer,
  id,
  ...rest
}: {
  side: BubbleSide
  author?: string
  children: React.ReactNode
  footer?: React.ReactNode
  id?: string
  'data-testid'?: string
  'data-message'?: string | number
  'data-state'?: string
}) {
  return (
    <li className={`ui-bubble ui-bubble-${side}`} id={id} {...rest}>
      {author ? <span className="visually-hidden">{author}: </span> : null}
      <div className="ui-bubble-body">{children}</div>
      {footer ? <div className="ui-bubble-footer">{footer}</div> : null}
    </li>
  )
}

/**
 * The messages of a conversation, oldest first, in a scroll box that opens at the newest (its
 * end is its anchor: earlier pages added above do not move what is on screen). The list is a
 * log, so new messages are announced politely.
 */
export function MessageLog({
  label,
  children,
  live = false,
  boxRef,
}: {
  label: string
  children: React.ReactNode
  live?: boolean
  boxRef?: React.Ref<HTMLDivElement>
}) {
  return (
    <div
      className="ui-message-scroll"
      ref={boxRef}
      tabIndex={0}
      role={live ? 'log' : 'region'}
      aria-live={live ? 'polite' : undefined}
      aria-label={label}
    >
      <ol className="ui-message-log" data-testid="message-log">
        {children}
      </ol>
    </div>
  )
}
