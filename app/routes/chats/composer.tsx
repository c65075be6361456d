import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { Button } from '~/components/ui/button'
import { useHubSend } from '~/components/realtime'
import { chatLimits } from '#server/modules/chat/rules.ts'
import type { ChatMessage } from '#server/modules/chat/contract.ts'
import { ATTACHMENT_ACCEPT, messageProblem, newClientMessageId } from './forms'

/** What the room's action answers a send: the stored message (with JavaScript), or the form's errors. */
export type SendResult = {
  sent?: ChatMessage
  reply?: {
    error?: Record<string, string[] | null> | null
    initialValue?: Record<string, unknown> | null
  } | null
  notice?: string
}

const TYPING_EVERY_MS = 3_000

/**
 * The composer: a multipart form that posts to the room's action. Without JavaScript the action
 * redirects back to the room, which shows the message; with it the form posts through a fetcher,
 * the stored message is handed to `onSent` at once, and a new client message id is made for the
 * next one. The id is a hidden field, so a doubled or retried submit never stores a message twice.
 */
export function Composer({
  roomId,
  clientMessageId,
  result,
  onSent,
}: {
  roomId: number
  clientMessageId: string
  result?: SendResult
  onSent: (message: ChatMessage) => void
}) {
  const { t } = useTranslation('chat')
  const fetcher = useFetcher<SendResult>({ key: `send-${roomId}` })
  const form = useRef<HTMLFormElement>(null)
  const [id, setId] = useState(clientMessageId)
  const [hydrated, setHydrated] = useState(false)
  const [clientError, setClientError] = useState<string | null>(null)
  useEffect(() => setHydrated(true), [])

  const answer = fetcher.data ?? result
  const handled = useRef<SendResult | undefined>(undefined)
  useEffect(() => {
    if (!fetcher.data || handled.current === fetcher.data) return
    handled.current = fetcher.data
    if (fetcher.data.sent) {
      onSent(fetcher.data.sent)
      form.current?.reset()
      setId(newClientMessageId())
    }
  }, [fetcher.data, onSent])

  const error =
    clientError ??
    answer?.reply?.error?.text?.[0] ??
    answer?.reply?.error?.file?.[0] ??
    answer?.notice ??
    null
  const initialText = answer?.reply?.initialValue?.text
  const busy = fetcher.state !== 'idle'
  return (
    <fetcher.Form
      method="post"
      encType="multipart/form-data"
      action={`/chats/${roomId}`}
      className="ui-composer"
      ref={form}
      onSubmit={(event) => {
        // The action's rules: nothing empty or too long leaves the page.
        const problem = messageProblem(new FormData(event.currentTarget))
        setClientError(problem)
        if (problem || busy) event.preventDefault()
      }}
    >
      <input type="hidden" name="clientMessageId" value={id} />
      {hydrated ? <input type="hidden" name="live" value="1" /> : null}
      <MessageText
        roomId={roomId}
        initialText={typeof initialText === 'string' ? initialText : undefined}
        error={error}
        onInput={() => setClientError(null)}
        onEnter={() => form.current?.requestSubmit()}
      />
      <AttachmentField />
      <Button variant="primary" aria-disabled={busy || undefined}>
        {busy ? t('room.sending') : t('composer.send')}
      </Button>
    </fetcher.Form>
  )
}

/** The message: Enter sends, Shift+Enter starts a new line, and typing tells the room (at most every few seconds). */
function MessageText({
  roomId,
  initialText,
  error,
  onInput,
  onEnter,
}: {
  roomId: number
  initialText: string | undefined
  error: string | null
  onInput: () => void
  onEnter: () => void
}) {
  const { t } = useTranslation('chat')
  const send = useHubSend('chat')
  const lastTyping = useRef(0)
  return (
    <div className="field">
      <label htmlFor="chat-text">{t('composer.label')}</label>
      <textarea
        id="chat-text"
        name="text"
        rows={3}
        maxLength={chatLimits.text}
        defaultValue={initialText}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'chat-text-error' : undefined}
        onInput={() => {
          onInput()
          const now = Date.now()
          if (now - lastTyping.current < TYPING_EVERY_MS) return
          lastTyping.current = now
          send('Typing', roomId)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            onEnter()
          }
        }}
      />
      {error ? (
        <p className="field-error" id="chat-text-error" role="alert">
          {t(error, { defaultValue: error, max: chatLimits.text })}
        </p>
      ) : null}
    </div>
  )
}

function AttachmentField() {
  const { t } = useTranslation('chat')
  return (
    <div className="field">
      <label htmlFor="chat-file">{t('composer.attach')}</label>
      <input
        id="chat-file"
        name="file"
        type="file"
        accept={ATTACHMENT_ACCEPT}
        aria-describedby="chat-file-hint"
      />
      <p className="hint" id="chat-file-hint">
        {t('composer.attachHint', {
          image: chatLimits.imageKb,
          document: chatLimits.documentKb / 1024,
          media: chatLimits.mediaKb / 1024,
        })}
      </p>
    </div>
  )
}
