import { useLocation, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { SubmissionResult } from '@conform-to/react'
import { useWords, type Wording } from '~/lib/words'
import { Button, ButtonGroup, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { StatusChip } from '~/components/ui/status-chip'
import { ConfirmStep } from '~/components/ui/confirm'
import { ReplyPostForm } from '~/components/auth/form'
import { inputProps, useReplyForm } from '~/components/ui/reply-form'
import type { RefundOut } from '#server/modules/payments/refunds-contract.ts'
import { refundLimits } from '#server/modules/payments/states.ts'
import { parseAmount } from '#server/modules/projects/rules.ts'
import { ActionButton, Money } from '../projects/ui'
import { ErrorText } from '~/components/projects/error-text'

// A contract's refunds on its two pages (decisions 180–182): the client asks for a refund of a
// funded installment (behind an "Ask for a refund" step, then a confirmation that names the amount
// typed) and sees each request's state and the money returned; the freelancer accepts (after a
// confirmation) or declines with a reason, before the deadline. Plain forms: everything works
// with JavaScript off (decision 310). The action parses them with the contract's schemas and
// replies with the errors; the browser's code has no zod (issue 38).
interface Installment {
  id: number
  position: number
  title: string
  currency: string
}
interface Refunds {
  data: RefundOut[]
  refundable: Array<{ installmentId: number; refundableMinor: number; open: boolean }>
  responseDays: number
}
type Result =
  | {
      refund?: SubmissionResult<string[]>
      refundFor?: string
      notice?: string
      refundConfirm?: { installmentId: number; amount: string; reason: string }
    }
  | undefined

/** The amounts and deadlines `RefundsSection` shows, for its page's loader to word (`~/lib/words`). */
export function wordRefunds(words: Wording, refunds: Refunds, currency: string) {
  for (const r of refunds.data) {
    words.money(r.amountMinor, r.currency)
    words.money(r.amountMinor + r.feeMinor, r.currency)
    if (r.status === 'open') words.date(r.respondBy, 'dateTime')
  }
  for (const a of refunds.refundable) words.money(a.refundableMinor, currency)
}

export function RefundsSection({
  refunds,
  installments,
  role,
  done,
  result,
  counterpart,
}: {
  refunds: Refunds
  installments: Installment[]
  role: 'client' | 'freelancer'
  done: string | null
  result: Result
  /** The other side's name: the freelancer asked to refund, or the client the money goes back to. */
  counterpart: string
}) {
  const { t } = useTranslation('refunds')
  const byId = new Map(installments.map((i) => [i.id, i]))
  const askable = role === 'client' ? refunds.refundable.filter((r) => !r.open && r.refundableMinor > 0) : []
  if (!refunds.data.length && !askable.length && !done) return null
  return (
    <section id="refunds" aria-labelledby="refunds-title" className="ui-section" data-testid="refunds">
      <h2 id="refunds-title">{t('title')}</h2>
      {done ? (
        <Notice kind="success" data-testid="refund-notice">
          {t(`done.${done}`, { defaultValue: '' })}
        </Notice>
      ) : null}
      {refunds.data.map((r) => (
        <RefundCard
          key={r.id}
          r={r}
          installment={byId.get(r.installmentId)}
          role={role}
          result={result}
          counterpart={counterpart}
        />
      ))}
      {askable.map((a) => {
        const i = byId.get(a.installmentId)
        const asked = result?.refundConfirm
        if (i && asked?.installmentId === i.id)
          return <ConfirmRequest key={i.id} installment={i} asked={asked} counterpart={counterpart} />
        return i ? (
          <RequestForm
            key={a.installmentId}
            installment={i}
            refundableMinor={a.refundableMinor}
            days={refunds.responseDays}
            result={result}
          />
        ) : null
      })}
    </section>
  )
}

function RefundCard({
  r,
  installment,
  role,
  result,
  counterpart,
}: {
  r: RefundOut
  installment?: Installment
  role: 'client' | 'freelancer'
  result: Result
  counterpart: string
}) {
  const { t } = useTranslation(['refunds', 'disputes'])
  const amount = useWords().money(r.amountMinor, r.currency)
  const rows = useRefundFacts(r, role)
  return (
    <Card data-testid={`refund-${r.id}`}>
      <header className="ui-card-header">
        <h3>{t('card.title', { installment: installment?.title ?? '' })}</h3>
        <StatusChip machine="refund" state={r.status} />
      </header>
      <DefinitionList items={rows} />
      {role === 'freelancer' && r.status === 'open' ? (
        <Answer r={r} result={result} amount={amount} client={counterpart} />
      ) : null}
      {role === 'client' && r.canDispute ? (
        <ButtonGroup label={t('card.actions')}>
          <ActionButton
            intent="refund-dispute"
            fields={{ requestId: r.id }}
            label={t('dispute')}
            variant="destructive"
            confirm={{ question: t('confirm.dispute', { amount }), yes: t('confirm.disputeYes') }}
          />
        </ButtonGroup>
      ) : null}
      {role === 'client' && r.status === 'disputed' ? (
        <p className="muted small">{t('card.disputed')}</p>
      ) : null}
    </Card>
  )
}

/** What a refund card lists: the amount and reason, then what its state adds (deadline, decline, money returned, dispute, decision). */
function useRefundFacts(r: RefundOut, role: 'client' | 'freelancer') {
  const { t } = useTranslation(['refunds', 'disputes'])
  const words = useWords()
  const returned = r.status === 'accepted' || (r.status === 'decided' && r.amountMinor > 0)
  const rows: Array<[string, React.ReactNode]> = [
    [t('card.amount'), <Money key="a" minor={r.amountMinor} currency={r.currency} />],
    [
      t('card.reason'),
      <span key="r" className="prewrap">
        {r.reason}
      </span>,
    ],
  ]
  if (r.status === 'open')
    rows.push([
      t('card.respondBy'),
      <span key="d">
        {words.date(r.respondBy, 'dateTime')}
        {r.overdue ? ` · ${t('card.overdue')}` : ''}
      </span>,
    ])
  if (r.declineReason)
    rows.push([
      t('card.declineReason'),
      <span key="x" className="prewrap">
        {r.declineReason}
      </span>,
    ])
  if (returned)
    rows.push([
      role === 'client' ? t('card.returnedToYou') : t('card.returned'),
      <strong key="m" data-testid="refund-returned">
        <Money minor={r.amountMinor + r.feeMinor} currency={r.currency} />
      </strong>,
    ])
  if (returned && r.gatewayStatus) rows.push([t('card.gateway'), t(`gateway.${r.gatewayStatus}`)])
  // A complaint's dispute (decision 230): its ticket is where both sides answer and see the decision.
  if (r.complaintId)
    rows.push([
      t('disputes:refundCard.complaint'),
      <Link key="c" to={`/ticketSupport/${r.complaintId}`}>
        {t('disputes:refundCard.open', { id: r.complaintId })}
      </Link>,
    ])
  if (r.decisionNote)
    rows.push([
      t('card.decision'),
      <span key="n" className="prewrap">
        {r.decisionNote}
      </span>,
    ])
  return rows
}

/** The freelancer's answer: accept (the money goes back at once) or decline with a reason. */
function Answer({
  r,
  result,
  amount,
  client,
}: {
  r: RefundOut
  result: Result
  amount: string
  client: string
}) {
  const { t } = useTranslation('refunds')
  const form = useReplyForm(
    result?.refundFor === `decline-${r.id}` ? result.refund : undefined,
    `decline-${r.id}`,
  )
  const reason = form.field('reason')
  return (
    <>
      <ButtonGroup label={t('card.actions')}>
        <ActionButton
          intent="refund-accept"
          fields={{ requestId: r.id }}
          label={t('accept')}
          variant="primary"
          confirm={{
            question: t('confirm.accept', { amount, name: client }),
            yes: t('confirm.acceptYes', { amount }),
          }}
        />
      </ButtonGroup>
      <ReplyPostForm form={form} id={`decline-${r.id}`} intent="refund-decline">
        <input type="hidden" name="requestId" value={r.id} />
        <div className="field">
          <label htmlFor={reason.id}>{t('declineReason')}</label>
          <textarea {...inputProps(reason)} rows={2} maxLength={refundLimits.reason} />
          <ErrorText errors={reason.error ? [reason.error] : undefined} id={reason.errorId} />
        </div>
        <div>
          <Button variant="destructive">{t('decline')}</Button>
        </div>
      </ReplyPostForm>
    </>
  )
}

/** The request's confirmation step: the amount typed, as money, and who is asked to give it back. */
function ConfirmRequest({
  installment,
  asked,
  counterpart,
}: {
  installment: Installment
  asked: NonNullable<NonNullable<Result>['refundConfirm']>
  counterpart: string
}) {
  const { t } = useTranslation('refunds')
  const { pathname } = useLocation()
  // The amount typed, worded here: it comes with an action's answer, after the page started.
  const amount = useWords().money(parseAmount(asked.amount) ?? 0, installment.currency)
  return (
    <Card data-testid={`refund-form-${installment.position}`}>
      <h3>{t('request.title', { installment: installment.title })}</h3>
      <ConfirmStep
        question={t('confirm.request', { amount, name: counterpart, installment: installment.title })}
        yes={t('confirm.requestYes', { amount })}
        fields={{ intent: 'refund-request', ...asked }}
        back={`${pathname}#refunds`}
      />
    </Card>
  )
}

/** The client's request for one installment, folded behind "Ask for a refund"; the amount is typed, never filled in for them. */
function RequestForm({
  installment,
  refundableMinor,
  days,
  result,
}: {
  installment: Installment
  refundableMinor: number
  days: number
  result: Result
}) {
  const { t } = useTranslation('refunds')
  const mine = result?.refundFor === `request-${installment.id}`
  const form = useReplyForm(mine ? result?.refund : undefined, `refund-${installment.id}`)
  const amount = form.field('amount')
  const reason = form.field('reason')
  return (
    <Card data-testid={`refund-form-${installment.position}`}>
      <h3>{t('request.title', { installment: installment.title })}</h3>
      <details className="ui-confirm-disclosure" open={mine || undefined}>
        <summary className={buttonClass('secondary')}>{t('request.open')}</summary>
        <p className="muted small">
          {t('request.hint', { count: days })}{' '}
          <Money minor={refundableMinor} currency={installment.currency} />
        </p>
        <ReplyPostForm form={form} id={`refund-${installment.id}`} intent="refund-request">
          <input type="hidden" name="installmentId" value={installment.id} />
          <div className="field">
            <label htmlFor={amount.id}>{t('request.amount', { currency: installment.currency })}</label>
            <input {...inputProps(amount)} type="text" inputMode="decimal" />
            <ErrorText errors={amount.error ? [amount.error] : undefined} id={amount.errorId} />
          </div>
          <div className="field">
            <label htmlFor={reason.id}>{t('request.reason')}</label>
            <textarea {...inputProps(reason)} rows={3} maxLength={refundLimits.reason} />
            <ErrorText errors={reason.error ? [reason.error] : undefined} id={reason.errorId} />
          </div>
          <div>
            <Button>{t('request.submit')}</Button>
          </div>
        </ReplyPostForm>
      </details>
    </Card>
  )
}
