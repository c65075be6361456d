import type React from 'react'
import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import { Button, ButtonGroup } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { DefinitionList } from '~/components/ui/definition-list'
import type { FieldReply } from '~/components/ui/field'
import { ReplyPostForm } from '~/components/auth/form'
import { inputProps, useReplyForm } from '~/components/ui/reply-form'
import type { Tone } from '~/components/ui/tones'
import type { ChangeOrderOut } from '#server/modules/projects/change-orders/contract.ts'
import { changeOrderLimits } from '#server/modules/projects/change-orders/states.ts'
import { ActionButton, Money } from './ui'
import { ErrorText } from '~/components/projects/error-text'

// The pieces of the change-order page (decision 319): the contract's value (original, approved
// changes, now), and one card per change order with what it changes and, for the party whose turn
// it is, the decision: accept behind its confirmation step, reject with a reason, or withdraw.

export interface ValueSummary {
  currency: string
  originalMinor: number
  approvedChangesMinor: number
  currentMinor: number
  deadline: string | null
}
type Installment = { id: number; title: string; amountMinor: number; status: string }

const tones: Record<string, Tone> = {
  proposed: 'progress',
  accepted: 'success',
  rejected: 'danger',
  withdrawn: 'neutral',
}
const heldStates = ['funded', 'submitted', 'changes_requested']

/** The values `ContractValue` shows, for its page's loader to word (`~/lib/words`). */
export function wordContractValue(words: Wording, v: ValueSummary) {
  for (const minor of [v.originalMinor, v.approvedChangesMinor, v.currentMinor])
    words.money(minor, v.currency)
  if (v.deadline) words.date(v.deadline)
}

export function ContractValue({ v, link }: { v: ValueSummary; link?: string }) {
  const { t } = useTranslation('changeOrders')
  const words = useWords()
  const signed = (minor: number) => `${minor > 0 ? '+' : ''}${words.money(minor, v.currency)}`
  return (
    <Card data-testid="contract-value">
      <h2 className="ui-card-title">{t('value.title')}</h2>
      <DefinitionList
        items={[
          [t('value.original'), <Money key="o" minor={v.originalMinor} currency={v.currency} />],
          [t('value.approved'), signed(v.approvedChangesMinor)],
          [
            t('value.current'),
            <strong key="c" data-testid="current-value">
              <Money minor={v.currentMinor} currency={v.currency} />
            </strong>,
          ],
          [t('value.deadline'), v.deadline ? words.date(v.deadline) : t('value.noDeadline')],
        ]}
      />
      {link ? <Link to={link}>{t('link')}</Link> : null}
    </Card>
  )
}

/** One effect in words: "New installment “Survey”: €400.00", with what it replaced once accepted. */
function Effect({
  e,
  o,
  names,
  amounts,
}: {
  e: ChangeOrderOut['effects'][number]
  o: ChangeOrderOut
  names: Map<number, string>
  amounts: Map<number, number>
}) {
  const { t } = useTranslation('changeOrders')
  const words = useWords()
  const money = (minor: number | null) => (minor === null ? '' : words.money(minor, o.currency))
  const day = (d: string | null) => (d ? words.date(d) : '—')
  const title = e.kind === 'add' ? (e.title ?? '') : (e.oldTitle ?? names.get(e.installmentId ?? 0) ?? '')
  if (e.kind === 'deadline') return <li>{t('effect.deadline', { date: day(e.dueDate) })}</li>
  if (e.kind === 'add') return <li>{t('effect.add', { title, amount: money(e.amountMinor) })}</li>
  if (e.kind === 'reduce') return <li>{t('effect.reduce', { title, amount: money(e.amountMinor) })}</li>
  if (e.kind === 'remove')
    return (
      <li>
        {t('effect.remove', {
          title,
          amount: money(e.oldAmountMinor ?? amounts.get(e.installmentId ?? 0) ?? 0),
        })}
      </li>
    )
  const was = (from: string) => (o.status === 'accepted' ? ` (${t('effect.was', { from })})` : '')
  return (
    <li>
      {t('effect.change', { title })}
      <ul>
        {e.title ? <li>{t('effect.renamed', { to: e.title })}</li> : null}
        {e.amountMinor !== null ? (
          <li>
            {t('effect.amount', { to: money(e.amountMinor) })}
            {was(money(e.oldAmountMinor))}
          </li>
        ) : null}
        {e.dueDate ? (
          <li>
            {t('effect.dueDate', { to: day(e.dueDate) })}
            {was(day(e.oldDueDate))}
          </li>
        ) : null}
      </ul>
    </li>
  )
}

/** Held money a pending change order would give back: reductions and removals of installments whose money is held. */
function heldBack(o: ChangeOrderOut, installments: Installment[]) {
  return o.effects.reduce((sum, e) => {
    const i = installments.find((x) => x.id === e.installmentId)
    if (!i || !heldStates.includes(i.status)) return sum
    if (e.kind === 'remove') return sum + i.amountMinor
    if (e.amountMinor === null) return sum
    if (e.kind === 'reduce') return sum + e.amountMinor
    return e.kind === 'change' ? sum + Math.max(0, i.amountMinor - e.amountMinor) : sum
  }, 0)
}

/** The amounts and days `ChangeOrderCard`s show, for their page's loader to word. */
export function wordChangeOrders(
  words: Wording,
  {
    data,
    installments,
    currentMinor,
  }: { data: ChangeOrderOut[]; installments: Installment[]; currentMinor: number },
) {
  const amounts = new Map(installments.map((i) => [i.id, i.amountMinor]))
  for (const o of data) {
    const money = (minor: number | null) => (minor === null ? null : words.money(minor, o.currency))
    words.date(o.createdAt)
    money(o.deltaMinor)
    for (const e of o.effects) {
      for (const day of [e.dueDate, e.oldDueDate]) if (day) words.date(day)
      money(e.amountMinor)
      money(e.oldAmountMinor ?? (e.kind === 'remove' ? (amounts.get(e.installmentId ?? 0) ?? 0) : null))
    }
    const refunded = o.effects.reduce((s, e) => s + (e.refundedMinor ?? 0), 0)
    const back = heldBack(o, installments)
    if (refunded) money(refunded)
    if (o.canDecide) money(currentMinor + o.deltaMinor)
    if (o.canDecide && back) money(back)
  }
}

export function ChangeOrderCard({
  o,
  installments,
  currentMinor,
  reply,
}: {
  o: ChangeOrderOut
  installments: Installment[]
  currentMinor: number
  reply?: FieldReply
}) {
  const { t } = useTranslation('changeOrders')
  const words = useWords()
  const money = (minor: number) => words.money(minor, o.currency)
  const names = new Map(installments.map((i) => [i.id, i.title]))
  const amounts = new Map(installments.map((i) => [i.id, i.amountMinor]))
  const rows: Array<[string, React.ReactNode]> = [
    [
      t('form.description'),
      <span key="d" className="prewrap">
        {o.description}
      </span>,
    ],
    [
      t('list.reason'),
      <span key="r" className="prewrap">
        {o.reason}
      </span>,
    ],
    [t('list.delta'), `${o.deltaMinor > 0 ? '+' : ''}${money(o.deltaMinor)}`],
  ]
  if (o.rejectionReason)
    rows.push([
      t('list.rejectionReason'),
      <span key="x" className="prewrap">
        {o.rejectionReason}
      </span>,
    ])
  const refunded = o.effects.reduce((s, e) => s + (e.refundedMinor ?? 0), 0)
  const back = heldBack(o, installments)
  return (
    <Card data-testid={`change-order-${o.number}`}>
      <header className="ui-card-header">
        <h3>{t('list.number', { number: o.number })}</h3>
        <Chip tone={tones[o.status]} data-status={o.status} data-testid="change-order-status">
          {t(`state.${o.status}`)}
        </Chip>
      </header>
      <p className="muted small">
        {t('list.proposedBy', { name: o.proposerName, date: words.date(o.createdAt) })}
      </p>
      <DefinitionList items={rows} />
      <h4>{t('list.effects')}</h4>
      <ul>
        {o.effects.map((e, n) => (
          <Effect key={n} e={e} o={o} names={names} amounts={amounts} />
        ))}
      </ul>
      {refunded ? <p>{t('list.refunded', { amount: money(refunded) })}</p> : null}
      {o.canDecide ? (
        <Decision
          o={o}
          value={money(currentMinor + o.deltaMinor)}
          refund={back ? money(back) : ''}
          reply={reply}
        />
      ) : null}
      {o.canWithdraw ? (
        <ButtonGroup label={t('decide.actions', { number: o.number })}>
          <ActionButton intent="withdraw" fields={{ id: o.id }} label={t('decide.withdraw')} />
        </ButtonGroup>
      ) : null}
    </Card>
  )
}

/** The other party's turn: accept behind a step that names the new value and any money going back, or reject with a reason. */
function Decision({
  o,
  value,
  refund,
  reply,
}: {
  o: ChangeOrderOut
  value: string
  refund: string
  reply?: FieldReply
}) {
  const { t } = useTranslation('changeOrders')
  const form = useReplyForm(reply, `reject-${o.id}`)
  const reason = form.field('reason')
  return (
    <>
      <ButtonGroup label={t('decide.actions', { number: o.number })}>
        <ActionButton
          intent="accept"
          fields={{ id: o.id }}
          label={t('decide.accept')}
          variant="primary"
          confirm={{
            question: [
              t('decide.confirm', { number: o.number, value }),
              refund ? t('decide.confirmRefund', { amount: refund }) : '',
            ]
              .filter(Boolean)
              .join(' '),
            yes: t('decide.confirmYes'),
          }}
        />
      </ButtonGroup>
      <ReplyPostForm form={form} id={`reject-${o.id}`} intent="reject">
        <input type="hidden" name="id" value={o.id} />
        <div className="field">
          <label htmlFor={reason.id}>{t('decide.rejectReason')}</label>
          <textarea {...inputProps(reason)} rows={2} maxLength={changeOrderLimits.reason} />
          <ErrorText errors={reason.error ? [reason.error] : undefined} id={reason.errorId} />
        </div>
        <div>
          <Button variant="destructive">{t('decide.rejectSubmit')}</Button>
        </div>
      </ReplyPostForm>
    </>
  )
}
