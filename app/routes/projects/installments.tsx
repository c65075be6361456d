import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { Button, ButtonLink } from '~/components/ui/button'
import { Stepper } from '~/components/ui/stepper'
import { Timeline } from '~/components/ui/timeline'
import { Confirm } from '~/components/ui/confirm'
import { useWords, type Wording } from '~/lib/words'
import { Attachments, Money } from './ui'
import { installmentMoves, waitingOn, type InstallmentMove } from './moves'

interface Installment {
  id: number
  position: number
  title: string
  amountMinor: number
  currency: string
  dueDate: string | null
  status: string
  submissionNote: string | null
  feedback: string | null
  files: Array<{ id: number; name: string; url: string; size: number }>
  /** Deliverables in the register: if any, the installment's moves are made there (decision 318). */
  deliverables?: number
}

const moveLabel: Record<InstallmentMove, string> = {
  'installment-fund': 'installment.fund',
  'installment-approve': 'installment.approve',
  'installment-request-changes': 'installment.requestChanges',
  'installment-submit': 'installment.submit',
  'installment-issue': 'installment.issue',
  'installment-review': 'installment.review',
}

/** The amounts `InstallmentList` shows, for its page's loader to word (`~/lib/words`). */
export function wordInstallments(
  words: Wording,
  items: ReadonlyArray<Pick<Installment, 'amountMinor' | 'currency'>>,
) {
  for (const i of items) words.money(i.amountMinor, i.currency)
}

/**
 * A contract's installments as a stepper: each shows its state, and either the moves the viewer can
 * make now (plain forms, a note where the move needs one) or whose move it waits on.
 */
export function InstallmentList({
  items,
  role,
  active,
  projectId,
  payee = '',
}: {
  items: Installment[]
  role: 'client' | 'freelancer'
  active: boolean
  projectId?: number
  /** The freelancer's name: approving releases the installment to them. */
  payee?: string
}) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const steps = items.map((i) => {
    const moves = installmentMoves(role, i.status, active, i.deliverables)
    const waiting = active ? waitingOn(i.status) : null
    return {
      key: i.id,
      testId: `installment-${i.position}`,
      state: i.status,
      title: (
        <>
          {i.title} · <Money minor={i.amountMinor} currency={i.currency} />
        </>
      ),
      waiting: waiting ? t(`installment.next.${i.status}`) : undefined,
      actions: moves.length
        ? moves.map((m) =>
            m === 'installment-fund' && projectId ? (
              <FundForm key={m} projectId={projectId} id={i.id} label={t(moveLabel[m])} />
            ) : m === 'installment-issue' || m === 'installment-review' ? (
              <ButtonLink
                key={m}
                variant={m === 'installment-issue' ? 'primary' : 'secondary'}
                to={`/projects/register/${projectId}`}
              >
                {t(moveLabel[m])}
              </ButtonLink>
            ) : m === 'installment-approve' ? (
              <Confirm
                key={m}
                label={t(moveLabel[m])}
                variant="primary"
                fields={{ intent: m, id: i.id }}
                question={t('confirm.release', {
                  amount: words.money(i.amountMinor, i.currency),
                  name: payee,
                })}
                yes={t('confirm.releaseYes', {
                  amount: words.money(i.amountMinor, i.currency),
                })}
              >
                <p className="muted small">{t('confirm.releaseNote', { name: payee })}</p>
              </Confirm>
            ) : (
              <MoveForm key={m} move={m} id={i.id} label={t(moveLabel[m])} />
            ),
          )
        : undefined,
      children: (
        <>
          {i.dueDate ? <p className="muted small">{t('installment.due', { date: i.dueDate })}</p> : null}
          {i.submissionNote ? (
            <p className="prewrap">{t('installment.submitted', { note: i.submissionNote })}</p>
          ) : null}
          {i.feedback ? <p className="prewrap">{t('installment.feedback', { note: i.feedback })}</p> : null}
          <Attachments files={i.files} />
        </>
      ),
    }
  })
  return (
    <div data-testid="installments">
      <Stepper steps={steps} label={t('contract.installments')} />
    </div>
  )
}

/** Funding is paying: the pay page shows amount, fee and total, then the gateway takes the money (modules/payments). */
function FundForm({ projectId, id, label }: { projectId: number; id: number; label: string }) {
  return (
    <Form method="get" action={`/projects/client/pay/${projectId}`}>
      <input type="hidden" name="installment" value={id} />
      <div>
        <Button variant="primary">{label}</Button>
      </div>
    </Form>
  )
}

/** One move on one installment; submitting work and asking for changes carry a note (and work a file). */
function MoveForm({ move, id, label }: { move: InstallmentMove; id: number; label: string }) {
  const { t } = useTranslation('projects')
  const note = move === 'installment-submit' || move === 'installment-request-changes'
  const file = move === 'installment-submit'
  return (
    <Form method="post" encType={file ? 'multipart/form-data' : undefined}>
      <input type="hidden" name="intent" value={move} />
      <input type="hidden" name="id" value={id} />
      {note ? (
        <div className="field">
          <label htmlFor={`note-${move}-${id}`}>
            {file ? t('installment.noteSubmit') : t('installment.noteChanges')}
          </label>
          <textarea id={`note-${move}-${id}`} name="note" rows={2} required maxLength={2000} />
        </div>
      ) : null}
      {file ? (
        <div className="field">
          <label htmlFor={`file-${id}`}>{t('fields.attachment')}</label>
          <input id={`file-${id}`} name="file" type="file" />
        </div>
      ) : null}
      <div>
        <Button variant={move === 'installment-request-changes' ? 'secondary' : 'primary'}>{label}</Button>
      </div>
    </Form>
  )
}

/** Why the system closes a proposal (server/modules/projects/project-status.ts): taken by another freelancer, or the project cancelled. */
const closeReasons = ['taken', 'cancelled']

interface Activity {
  id: number
  entity: string
  action: string
  toState: string
  note: string | null
  amount?: { minor: number; currency: string } | null
  actor: { name: string } | null
  createdAt: string
}

/** The times and amounts `ActivityList` shows, for its page's loader to word. */
export function wordActivity(words: Wording, items: ReadonlyArray<Pick<Activity, 'amount' | 'createdAt'>>) {
  for (const a of items) {
    words.date(a.createdAt, 'dateTime')
    if (a.amount) words.money(a.amount.minor, a.amount.currency)
  }
}

/** The project's activity log as a timeline: who did what, when. */
export function ActivityList({ items }: { items: Activity[] }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return (
    <Timeline
      empty={t('activity.none')}
      events={items.map((a) => {
        // A proposal the system closed says why in words, not by its note's code word.
        const why = a.entity === 'proposal' && a.action === 'close' && closeReasons.includes(a.note ?? '')
        const key = why ? `activity.proposal.close_${a.note}` : `activity.${a.entity}.${a.action}`
        // An amount (a refund asked) is money in the reader's language; older rows kept it as their note.
        const note = a.amount ? words.money(a.amount.minor, a.amount.currency) : why ? null : a.note
        return {
          id: a.id,
          at: a.createdAt,
          text: (
            <span>
              <strong>{a.actor?.name ?? t('activity.system')}</strong>{' '}
              {t(key, { defaultValue: `${a.entity} ${a.action}` })}
              {note ? <span className="muted"> — {note}</span> : null}
            </span>
          ),
        }
      })}
    />
  )
}
