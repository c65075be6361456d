import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { useWords, type Wording } from '~/lib/words'
import { Button } from '~/components/ui/button'
import { DefinitionList } from '~/components/ui/definition-list'
import { MessageBubble, MessageLog } from '~/components/ui/conversation'
import { Notice } from '~/components/ui/notice'
import { StatusChip } from '~/components/ui/status-chip'
import type { ComplaintDetail, ComplaintSummary } from '#server/modules/complaints/contract.ts'
import { complaintLimits } from '#server/modules/complaints/limits.ts'
import type { FormAnswer } from './api.server'

// The pieces the author's ticket page and support's share: what a ticket is about, its facts, the
// conversation, and the reply form (a multipart POST that works without JavaScript).

export const ATTACH_ACCEPT = '.png,.jpg,.jpeg,.gif,.tiff,.bpg,.pdf,.docx,.xlsx,.csv,.txt,.dwg,.dxf,.ifc,.zip'

/** "Contract · Roof calculations (Fran One)". */
export function SubjectText({ subject }: { subject: ComplaintSummary['subject'] }) {
  const { t } = useTranslation('complaints')
  return (
    <>
      {subject.kind === 'platform' ? t('kinds.platform') : `${t(`kinds.${subject.kind}`)} · ${subject.label}`}
    </>
  )
}

/** For a loader: words a ticket's dates as its facts and conversation show them. */
export function wordTicket(words: Wording, ticket: ComplaintDetail) {
  words.date(ticket.createdAt)
  for (const m of ticket.messages) words.date(m.createdAt, 'dateTime')
}

export function TicketFacts({ ticket, support = false }: { ticket: ComplaintDetail; support?: boolean }) {
  const { t } = useTranslation('complaints')
  const words = useWords()
  return (
    <DefinitionList
      items={[
        [t('ticket.state'), <StatusChip key="s" machine="complaint" state={ticket.state} />],
        [t('ticket.about'), <SubjectText key="a" subject={ticket.subject} />],
        [t('ticket.filed'), words.date(ticket.createdAt)],
        ...(support
          ? ([[t('admin.author'), `${ticket.author.name} <${ticket.author.email}>`]] as Array<
              [string, string]
            >)
          : []),
        [t('ticket.assignee'), support ? (ticket.assignee?.name ?? t('admin.unassigned')) : null],
      ]}
    />
  )
}

/** The conversation, oldest first: the author's messages on one side, support's on the other. */
export function TicketConversation({
  ticket,
  support = false,
}: {
  ticket: ComplaintDetail
  support?: boolean
}) {
  const { t } = useTranslation('complaints')
  const words = useWords()
  return (
    <MessageLog label={t('ticket.conversation')}>
      {ticket.messages.map((m) => {
        return (
          <MessageBubble
            key={m.id}
            side={m.mine ? 'mine' : 'theirs'}
            author={m.fromSupport && !support ? t('ticket.support') : m.authorName}
            id={`m-${m.id}`}
            data-testid="ticket-message"
            footer={
              <time
                dateTime={m.createdAt}
              >{`${m.fromSupport && !support ? t('ticket.support') : m.authorName} · ${words.date(m.createdAt, 'dateTime')}`}</time>
            }
          >
            <p className="prewrap">{m.body}</p>
            <TicketFiles files={m.attachments} />
          </MessageBubble>
        )
      })}
    </MessageLog>
  )
}

/** A message's files, each a download through the signed-in file route (its own size in plain text: the bubble's colours). */
function TicketFiles({ files }: { files: ComplaintDetail['messages'][number]['attachments'] }) {
  const { t } = useTranslation('complaints')
  if (!files.length) return null
  return (
    <ul className="file-list" aria-label={t('ticket.attachments')}>
      {files.map((f) => (
        <li key={f.id}>
          <a href={`/ticketSupport/files/${f.id}`} download={f.name}>
            {f.name}
          </a>{' '}
          ({Math.max(1, Math.round(f.size / 1024))} KB)
        </li>
      ))}
    </ul>
  )
}

/** A field's first error under it (a key of the complaints namespace, or the API's own words). */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  const { t } = useTranslation('complaints')
  return error ? (
    <p className="field-error" id={id} role="alert">
      {t(error, { defaultValue: error })}
    </p>
  ) : null
}

/** The reply form with files; errors are keys of the complaints namespace. */
export function ReplyForm({
  answer,
  label,
  submit,
  action,
}: {
  answer?: FormAnswer
  label: string
  submit: string
  action?: string
}) {
  const { t } = useTranslation('complaints')
  const bodyError = answer?.reply?.error?.body?.[0]
  const filesError = answer?.reply?.error?.files?.[0]
  const initial = answer?.reply?.initialValue?.body
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={action}
      className="ui-card form-stack"
      aria-labelledby="reply-title"
      data-testid="reply-form"
    >
      <h2 id="reply-title">{label}</h2>
      {answer?.notice ? (
        <Notice kind="error">{t(answer.notice, { defaultValue: answer.notice })}</Notice>
      ) : null}
      <input type="hidden" name="intent" value="reply" />
      <div className="field">
        <label htmlFor="reply-body">{label}</label>
        <textarea
          id="reply-body"
          name="body"
          rows={5}
          required
          maxLength={complaintLimits.body}
          defaultValue={typeof initial === 'string' ? initial : undefined}
          aria-invalid={bodyError ? true : undefined}
          aria-describedby={bodyError ? 'reply-body-error' : undefined}
        />
        <FieldError id="reply-body-error" error={bodyError} />
      </div>
      <FilesField error={filesError} label={t('ticket.files')} />
      <div>
        <Button variant="primary">{submit}</Button>
      </div>
    </Form>
  )
}

export function FilesField({ error, label }: { error?: string; label: string }) {
  const { t } = useTranslation('complaints')
  return (
    <div className="field">
      <label htmlFor="ticket-files">{label}</label>
      <input
        id="ticket-files"
        name="files"
        type="file"
        multiple
        accept={ATTACH_ACCEPT}
        aria-describedby={error ? 'ticket-files-hint ticket-files-error' : 'ticket-files-hint'}
        aria-invalid={error ? true : undefined}
      />
      <p className="hint" id="ticket-files-hint">
        {t('add.filesHint')}
      </p>
      <FieldError id="ticket-files-error" error={error} />
    </div>
  )
}
