import { data, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/complaint'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { Timeline } from '~/components/ui/timeline'
import { complaintsContract as c, type AuditEntry } from '#server/modules/complaints/contract.ts'
import { complaintLimits } from '#server/modules/complaints/limits.ts'
import {
  decisionSchema,
  holdSchema,
  replySchema,
  stateChangeSchema,
} from '#server/modules/complaints/rules.ts'
import { DisputeSection, HoldSection, wordDispute } from './dispute'
import { decisionQuestion } from './dispute-step.server'
import { formFields, unconfirmed } from '~/lib/confirm.server'
import { useAuditWhy, wordAudit } from './audit-ui'
import { isSent, submitWithFiles, ticketIdOf as idOf, type FormAnswer } from '../ticket-support/api.server'
import { FieldError, ReplyForm, TicketConversation, TicketFacts, wordTicket } from '../ticket-support/ui'

// /admin/complaints/{id} (SuperAdmin only): a ticket for support: its facts, the conversation, a
// reply to the author (with files), taking the ticket, moving it to another state with a reason
// the author is told, deciding a dispute over an installment's money (decision 231), reading a
// complained-about chat room (decision 233), and its audit trail (who did what, when and why).
// Each form is a plain POST with an intent, so the page works without JavaScript.

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const admin = requirePermission(context, url, 'admin.area')
  try {
    const ticket = await apiFor(context).call(c.adminGet, { params: { complaintId: idOf(params) } })
    const words = wordsFor(getLocale(context))
    wordTicket(words, ticket)
    wordDispute(words, ticket.dispute, ticket.holdable)
    wordAudit(words, ticket.audit)
    return {
      ticket,
      words: words.words,
      /** Taking the ticket is offered until this admin has it. */
      mine: ticket.assignee?.id === admin.id,
      title: `#${ticket.id}: ${ticket.title} · ${getInstance(context).t('complaints:admin.title')}`,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type StateAnswer = FormAnswer & {
  intent?: string
  confirm?: { question: string; fields: Record<string, string> }
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const complaintId = idOf(params)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const t = getInstance(context).t
  const back = (message: string) =>
    redirectWithFlash(`/admin/complaints/${complaintId}`, { kind: 'success', message })
  const api = apiFor(context)
  if (intent === 'reply') {
    const answer = await submitWithFiles(
      context,
      form,
      replySchema,
      `Admin/complaints/${complaintId}/reply`,
      (body) => api.call(c.adminReply, { params: { complaintId }, body }),
    )
    return isSent(answer) ? back(t('complaints:admin.sent')) : answer
  }
  try {
    if (intent === 'assign') {
      await api.call(c.assign, { params: { complaintId } })
      return back(t('complaints:admin.assigned'))
    }
    if (intent === 'state') {
      const submission = parseWithZod(form, { schema: stateChangeSchema })
      if (submission.status !== 'success')
        return data<StateAnswer>({ intent, reply: submission.reply() }, { status: 400 })
      await api.call(c.changeState, { params: { complaintId }, body: submission.value })
      return back(t('complaints:admin.moved'))
    }
    if (intent === 'hold') {
      const submission = parseWithZod(form, { schema: holdSchema })
      if (submission.status !== 'success')
        return data<StateAnswer>({ intent, reply: submission.reply() }, { status: 400 })
      await api.call(c.hold, { params: { complaintId }, body: submission.value })
      return back(t('disputes:hold.done'))
    }
    if (intent === 'decide') {
      const submission = parseWithZod(form, { schema: decisionSchema })
      if (submission.status !== 'success')
        return data<StateAnswer>({ intent, reply: submission.reply() }, { status: 400 })
      if (unconfirmed('adminDispute', intent, form)) {
        const step = await decisionQuestion(context, complaintId, submission.value)
        if ('question' in step)
          return data<StateAnswer>({ intent, confirm: { question: step.question, fields: formFields(form) } })
        if (step.error === 'conflict')
          return data<StateAnswer>({ intent, notice: 'disputes:decide.conflict' }, { status: 409 })
        return data<StateAnswer>(
          { intent, reply: submission.reply({ fieldErrors: { refundMinor: ['disputes:errors.amount'] } }) },
          { status: 400 },
        )
      }
      try {
        await api.call(c.decide, { params: { complaintId }, body: submission.value })
      } catch (error) {
        // What is held decides which amounts are possible: the API's refusal is shown on the field.
        if (error instanceof ApiCallError && error.status === 400)
          return data<StateAnswer>(
            {
              intent,
              reply: submission.reply({ fieldErrors: { refundMinor: ['disputes:errors.amount'] } }),
            },
            { status: 400 },
          )
        if (error instanceof ApiCallError && error.status === 409)
          return data<StateAnswer>({ intent, notice: 'disputes:decide.conflict' }, { status: 409 })
        throw error
      }
      return back(t('disputes:decide.done'))
    }
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 409)
      return data<StateAnswer>({ intent, notice: 'errors.conflict' }, { status: 409 })
    throwApiError(error)
  }
  throw new Response('Bad Request', { status: 400 })
}

type Ticket = Route.ComponentProps['loaderData']['ticket']

export default function SupportTicket({ loaderData: { ticket, mine }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['complaints', 'ui', 'disputes'])
  const answer = actionData as StateAnswer | undefined
  const stateAnswer = answer?.intent === 'state' ? answer : undefined
  const replyAnswer = answer?.intent && answer.intent !== 'reply' ? undefined : answer
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/admin/complaints">{t('admin.back')}</Link>
      </p>
      <h1>{`#${ticket.id}: ${ticket.title}`}</h1>
      <TicketFacts ticket={ticket} support />
      {stateAnswer?.notice ? <Notice kind="error">{t(stateAnswer.notice)}</Notice> : null}
      {mine ? null : <ActionForm intent="assign" label={t('admin.assign')} />}
      {ticket.canReadRoom ? (
        <p>
          <Link to={`/admin/complaints/${ticket.id}/room`} aria-describedby="room-hint">
            {t(ticket.subject.kind === 'chat_room' ? 'disputes:room.open' : 'disputes:room.openContract')}
          </Link>{' '}
          <span className="muted" id="room-hint">
            {t('disputes:room.openHint')}
          </span>
        </p>
      ) : null}
      {ticket.dispute?.status === 'held' || !ticket.holdable.length ? null : (
        <HoldSection holdable={ticket.holdable} answer={answer?.intent === 'hold' ? answer : undefined} />
      )}
      {ticket.dispute ? (
        <DisputeSection dispute={ticket.dispute} answer={answer?.intent === 'decide' ? answer : undefined} />
      ) : null}
      {/* The conversation's log is the landmark named by this heading. */}
      <section className="ui-section">
        <h2 id="conversation">{t('ticket.conversation')}</h2>
        <TicketConversation ticket={ticket} support />
      </section>
      {ticket.canReply ? (
        <ReplyForm answer={replyAnswer} label={t('admin.reply')} submit={t('admin.send')} />
      ) : null}
      <StateSection nextStates={ticket.nextStates} answer={stateAnswer} />
      <AuditSection audit={ticket.audit} />
    </main>
  )
}

function useStatusName() {
  const { t } = useTranslation(['complaints', 'ui', 'disputes'])
  return (s: string | null) => (s ? t(`ui:status.complaint.${s}`) : '')
}

/** Moving the ticket to another state, with a reason the author is told. */
function StateSection({
  nextStates,
  answer,
}: {
  nextStates: Ticket['nextStates']
  answer: StateAnswer | undefined
}) {
  const { t } = useTranslation(['complaints', 'ui', 'disputes'])
  const status = useStatusName()
  const reasonError = answer?.reply?.error?.reason?.[0]
  const stateError = answer?.reply?.error?.state?.[0]
  return (
    <section aria-labelledby="change-state" className="ui-section">
      <h2 id="change-state">{t('admin.changeState')}</h2>
      {nextStates.length ? (
        <Form method="post" className="ui-card form-stack" data-testid="state-form">
          <input type="hidden" name="intent" value="state" />
          <div className="field">
            <label htmlFor="field-state">{t('admin.newState')}</label>
            <select
              id="field-state"
              name="state"
              required
              defaultValue=""
              aria-invalid={stateError ? true : undefined}
              aria-describedby={stateError ? 'field-state-error' : undefined}
            >
              <option value="">{t('add.choose')}</option>
              {nextStates.map((s) => (
                <option key={s} value={s}>
                  {status(s)}
                </option>
              ))}
            </select>
            <FieldError id="field-state-error" error={stateError} />
          </div>
          <div className="field">
            <label htmlFor="field-reason">{t('admin.reason')}</label>
            <textarea
              id="field-reason"
              name="reason"
              rows={3}
              required
              minLength={3}
              maxLength={complaintLimits.reason}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? 'field-reason-error' : undefined}
            />
            <FieldError id="field-reason-error" error={reasonError} />
          </div>
          <div>
            <Button variant="primary">{t('admin.move')}</Button>
          </div>
        </Form>
      ) : (
        <p className="muted">{t('admin.noMoves')}</p>
      )}
    </section>
  )
}

/** The ticket's audit trail: who did what, when and why. */
function AuditSection({ audit }: { audit: AuditEntry[] }) {
  const { t } = useTranslation(['complaints', 'ui', 'disputes'])
  const status = useStatusName()
  const why = useAuditWhy()
  const auditText = (a: AuditEntry) => (
    <>
      {t('admin.historyItem', {
        actor: a.actor.name,
        action: t([`admin.actions.${a.action}`, `disputes:actions.${a.action}`], { defaultValue: a.action }),
      })}
      {a.toState ? ` (${t('admin.stateMove', { from: status(a.fromState), to: status(a.toState) })})` : ''}
      {why(a) ? <span className="prewrap">{` — ${why(a)}`}</span> : null}
    </>
  )
  return (
    <section aria-labelledby="audit" className="ui-section">
      <h2 id="audit">{t('admin.history')}</h2>
      <Timeline
        events={audit.map((a) => ({ id: a.id, at: a.at, text: auditText(a) }))}
        empty={t('admin.noHistory')}
      />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
