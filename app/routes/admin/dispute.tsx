import { useTranslation } from '~/lib/translations'
import { Form, useLocation } from 'react-router'
import { ConfirmStep } from '~/components/ui/confirm'
import { useWords, type Wording } from '~/lib/words'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { Notice } from '~/components/ui/notice'
import type { ComplaintDetail } from '#server/modules/complaints/contract.ts'
import { complaintLimits, decisionOutcomes } from '#server/modules/complaints/limits.ts'
import type { FormAnswer } from '../ticket-support/api.server'
import { FieldError } from '../ticket-support/ui'

// The admin complaint screen's dispute (decisions 230–231): what is held and the decision form
// (release, refund or split with the refund typed as money, and a reason), or what was decided;
// and, for a complaint about a contract, holding one of its installments for the dispute.
// A plain POST with intent "decide": it works without JavaScript.

type Dispute = NonNullable<ComplaintDetail['dispute']>

/** For a loader: words a ticket's dispute as its sections show it (held, decide by, refunded, holdable installments). */
export function wordDispute(words: Wording, dispute: ComplaintDetail['dispute'], holdable: Holdable = []) {
  if (dispute) {
    words.money(dispute.heldMinor, dispute.currency)
    words.money(dispute.refundedMinor ?? 0, dispute.currency)
    if (dispute.decideBy) words.date(dispute.decideBy)
  }
  for (const i of holdable) words.money(i.heldMinor, i.currency)
}

export function DisputeSection({
  dispute,
  answer,
}: {
  dispute: Dispute
  answer?: FormAnswer & { confirm?: { question: string; fields: Record<string, string> } }
}) {
  const { t } = useTranslation(['disputes', 'complaints'])
  const { pathname } = useLocation()
  return (
    <section aria-labelledby="dispute" className="ui-section" data-testid="dispute">
      <h2 id="dispute">{t('decide.heading')}</h2>
      {dispute.status === 'decided' ? (
        <Notice kind="success">
          <DecidedText dispute={dispute} />
        </Notice>
      ) : (
        <Card>
          <HeldFacts dispute={dispute} />
          {answer?.notice ? (
            <Notice kind="error">{t(answer.notice, { defaultValue: answer.notice })}</Notice>
          ) : null}
          {answer?.confirm ? (
            <ConfirmStep
              question={answer.confirm.question}
              yes={t('decide.confirmYes')}
              fields={answer.confirm.fields}
              back={pathname}
            />
          ) : (
            <DecideForm dispute={dispute} answer={answer} />
          )}
        </Card>
      )}
    </section>
  )
}

/** The decision: release, refund or split with the refund typed as money, and a reason (its first POST answers with the step). */
function DecideForm({ dispute, answer }: { dispute: Dispute; answer?: FormAnswer }) {
  const { t } = useTranslation(['disputes', 'complaints'])
  const errors = answer?.reply?.error ?? {}
  const initial = answer?.reply?.initialValue ?? {}
  const field = (id: string, name = id) => ({
    id: `decide-${id}`,
    'aria-invalid': errors[name]?.[0] ? true : undefined,
    'aria-describedby': errors[name]?.[0] ? `decide-${id}-error` : undefined,
  })
  const value = (name: string) => (typeof initial[name] === 'string' ? (initial[name] as string) : undefined)
  return (
    <Form method="post" className="form-stack" data-testid="decide-form">
      <input type="hidden" name="intent" value="decide" />
      <div className="field">
        <label htmlFor="decide-outcome">{t('decide.outcome')}</label>
        <select name="outcome" required defaultValue={value('outcome') ?? ''} {...field('outcome')}>
          <option value="">{t('complaints:add.choose')}</option>
          {decisionOutcomes.map((o) => (
            <option key={o} value={o}>
              {t(`decide.${o}`)}
            </option>
          ))}
        </select>
        <FieldError id="decide-outcome-error" error={errors.outcome?.[0]} />
      </div>
      <div className="field">
        <label htmlFor="decide-refund">{t('decide.refundAmount', { currency: dispute.currency })}</label>
        <input
          name="refundMinor"
          type="text"
          inputMode="decimal"
          defaultValue={value('refundMinor')}
          {...field('refund', 'refundMinor')}
          aria-describedby={['decide-refund-hint', errors.refundMinor?.[0] ? 'decide-refund-error' : '']
            .join(' ')
            .trim()}
        />
        <p className="hint" id="decide-refund-hint">
          {t('decide.refundHint')}
        </p>
        <FieldError id="decide-refund-error" error={errors.refundMinor?.[0]} />
      </div>
      <div className="field">
        <label htmlFor="decide-reason">{t('decide.reason')}</label>
        <textarea
          name="reason"
          rows={3}
          required
          minLength={3}
          maxLength={complaintLimits.reason}
          defaultValue={value('reason')}
          {...field('reason')}
        />
        <FieldError id="decide-reason-error" error={errors.reason?.[0]} />
      </div>
      <div>
        <Button variant="primary">{t('decide.submit')}</Button>
      </div>
    </Form>
  )
}

/** What is held, when support is to have decided (and whether that date has passed), and where the statements are (decision 313). */
function HeldFacts({ dispute }: { dispute: Dispute }) {
  const { t } = useTranslation('disputes')
  const words = useWords()
  const { decideBy } = dispute
  return (
    <>
      <p data-testid="dispute-held">
        {t('decide.held', { amount: words.money(dispute.heldMinor, dispute.currency) })}
      </p>
      {decideBy ? (
        <p data-testid="dispute-decide-by">
          {t('decide.decideBy', { date: words.date(decideBy) })}{' '}
          {decideBy < new Date().toISOString() ? <Chip tone="danger">{t('queue.overdue')}</Chip> : null}
        </p>
      ) : null}
      <p className="muted small">{t('decide.statements')}</p>
    </>
  )
}

type Holdable = ComplaintDetail['holdable']

/**
 * A complaint about a contract, its project or its chat: support may hold one of its funded
 * installments for the dispute, then decide it below (decision 313).
 */
export function HoldSection({ holdable, answer }: { holdable: Holdable; answer?: FormAnswer }) {
  const { t } = useTranslation(['disputes', 'complaints'])
  const words = useWords()
  const error = answer?.reply?.error?.installmentId?.[0]
  return (
    <section aria-labelledby="hold" className="ui-section" data-testid="hold">
      <h2 id="hold">{t('hold.heading')}</h2>
      <Form method="post" className="ui-card form-stack" data-testid="hold-form">
        <input type="hidden" name="intent" value="hold" />
        <p className="muted small">{t('hold.lead')}</p>
        <div className="field">
          <label htmlFor="hold-installment">{t('hold.installment')}</label>
          <select
            id="hold-installment"
            name="installmentId"
            required
            defaultValue={holdable.length === 1 ? String(holdable[0].installmentId) : ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'hold-installment-error' : undefined}
          >
            <option value="">{t('complaints:add.choose')}</option>
            {holdable.map((i) => (
              <option key={i.installmentId} value={i.installmentId}>
                {`${i.title}: ${words.money(i.heldMinor, i.currency)}`}
              </option>
            ))}
          </select>
          <FieldError id="hold-installment-error" error={error} />
        </div>
        <div>
          <Button variant="primary">{t('hold.submit')}</Button>
        </div>
      </Form>
    </section>
  )
}

/** "Decided: 400,00 € refunded to the client, the rest released to the freelancer." */
export function DecidedText({ dispute, ns = 'decide' }: { dispute: Dispute; ns?: 'decide' | 'ticket' }) {
  const { t } = useTranslation('disputes')
  const refunded = useWords().money(dispute.refundedMinor ?? 0, dispute.currency)
  return <span data-testid="dispute-decided">{t(`${ns}.decided`, { refunded })}</span>
}
