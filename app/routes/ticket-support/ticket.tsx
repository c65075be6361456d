import type { Route } from './+types/ticket'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Notice } from '~/components/ui/notice'
import { useWords, wordsFor } from '~/lib/words'
import { DecidedText, wordDispute } from '../admin/dispute'
import { complaintsContract as c } from '#server/modules/complaints/contract.ts'
import { replySchema } from '#server/modules/complaints/rules.ts'
import { isSent, submitWithFiles, ticketIdOf as idOf, type FormAnswer } from './api.server'
import { ReplyForm, TicketConversation, TicketFacts, wordTicket } from './ui'

// /ticketSupport/{id}: one of the user's tickets, or one naming them as the other party (decision
// 232), its state, the money a dispute holds or what was decided, and the conversation with
// support; the reader replies (with files) until it is closed. Anyone else's ticket is not found (404).

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const ticket = await apiFor(context).call(c.get, { params: { complaintId: idOf(params) } })
    const words = wordsFor(getLocale(context))
    wordTicket(words, ticket)
    wordDispute(words, ticket.dispute)
    return {
      ticket,
      words: words.words,
      title: getInstance(context).t('complaints:ticket.title', { id: ticket.id, title: ticket.title }),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const complaintId = idOf(params)
  const answer = await submitWithFiles(
    context,
    await request.formData(),
    replySchema,
    `complaints/${complaintId}/messages`,
    (body) => apiFor(context).call(c.reply, { params: { complaintId }, body }),
  )
  if (!isSent(answer)) return answer
  return redirectWithFlash(`/ticketSupport/${complaintId}#m-${answer.ok.messages.at(-1)?.id ?? ''}`, {
    kind: 'success',
    message: getInstance(context).t('complaints:ticket.sent'),
  })
}

export default function Ticket({ loaderData: { ticket }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['complaints', 'disputes'])
  const words = useWords()
  const dispute = ticket.dispute
  const hint =
    ticket.state === 'waiting_on_user'
      ? t('ticket.waiting')
      : ticket.state === 'resolved'
        ? t('ticket.resolvedHint')
        : ticket.state === 'closed'
          ? t('ticket.closedHint')
          : null
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/ticketSupport">{t('ticket.back')}</Link>
      </p>
      <h1>{t('ticket.title', { id: ticket.id, title: ticket.title })}</h1>
      <TicketFacts ticket={ticket} />
      {ticket.viewer === 'party' ? <Notice kind="info">{t('disputes:ticket.party')}</Notice> : null}
      {dispute?.status === 'held' ? (
        <Notice kind="warning">
          {t('disputes:ticket.held', {
            amount: words.money(dispute.heldMinor, dispute.currency),
          })}
          {dispute.decideBy
            ? ` ${t('disputes:ticket.decideBy', { date: words.date(dispute.decideBy) })}`
            : null}
        </Notice>
      ) : null}
      {dispute?.status === 'decided' ? (
        <Notice kind="success">
          <DecidedText dispute={dispute} ns="ticket" />
        </Notice>
      ) : null}
      {hint ? <Notice kind={ticket.state === 'waiting_on_user' ? 'warning' : 'info'}>{hint}</Notice> : null}
      {/* The conversation's log is the landmark named by this heading. */}
      <section className="ui-section">
        <h2 id="conversation">{t('ticket.conversation')}</h2>
        <TicketConversation ticket={ticket} />
      </section>
      {ticket.canReply ? (
        <ReplyForm
          answer={actionData as FormAnswer | undefined}
          label={t('ticket.reply')}
          submit={t('ticket.send')}
        />
      ) : null}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
