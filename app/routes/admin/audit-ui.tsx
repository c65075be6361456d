import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Timeline } from '~/components/ui/timeline'
import { useWords, type Wording } from '~/lib/words'
import type { AuditEntry } from '#server/modules/complaints/contract.ts'

// One audit row in words (decision 238), for the audit list and a user's history: the action, the
// object it was done to (a link where the admin area has a page for it) and the move from → to.
// Rows come from every admin part: an action or state is named by the part's own words where they
// exist (users here, tickets in `complaints`, the state machines' in `ui`), else shown as stored.
const objectPages: Record<string, string> = {
  user: '/admin/users',
  complaint: '/admin/complaints',
  hiring_request: '/admin/hiring',
}

function useAuditWords() {
  const { t } = useTranslation(['adminUsers', 'complaints', 'ui', 'shortlist'])
  // A ticket's own steps read as support's ("took the ticket"); every other action, a dispute's on a
  // ticket too, by the audit's list of names, which has one for each (audit-names.test.ts).
  const action = (a: AuditEntry) =>
    t(
      a.objectType === 'complaint'
        ? [`complaints:admin.actions.${a.action}`, `adminUsers:auditActions.${a.action}`]
        : `adminUsers:auditActions.${a.action}`,
      { defaultValue: a.action },
    )
  // A hiring request's states are worded by its own namespace (decision 338), not the shared `ui` one.
  const state = (type: string, s: string) =>
    type === 'user'
      ? t(`adminUsers:status.${s}`, { defaultValue: s })
      : type === 'hiring_request'
        ? t(`shortlist:hiring.state.${s}`, { defaultValue: s })
        : t(`ui:status.${type}.${s}`, { defaultValue: s })
  const object = (a: AuditEntry) => {
    const name = `${t(`adminUsers:objects.${a.objectType}`, { defaultValue: a.objectType })}${a.objectId != null ? ` #${a.objectId}` : ''}`
    const page = objectPages[a.objectType]
    return page && a.objectId != null ? <Link to={`${page}/${a.objectId}`}>{name}</Link> : name
  }
  const move = (a: AuditEntry) =>
    a.toState
      ? t('adminUsers:audit.move', {
          from: a.fromState ? state(a.objectType, a.fromState) : '—',
          to: state(a.objectType, a.toState),
        })
      : ''
  return { t, action, object, move }
}

/** For a loader: words the audit rows' times and a decided dispute's amounts, as the rows show them. */
export function wordAudit(words: Wording, entries: AuditEntry[]) {
  for (const a of entries) {
    words.date(a.at, 'dateTime')
    const p = a.params
    if (a.action === 'decide_dispute' && p)
      for (const minor of [p.refundMinor, p.releaseMinor]) words.money(Number(minor), String(p.currency))
  }
}

/**
 * Why, in the reader's words: the row's facts (a dispute's amounts, the installment held, the
 * complaint a chat was read for, what a reconciliation settled), worded in the reader's language
 * with money as they write it (decision 321), then the admin's own reason.
 */
export function useAuditWhy() {
  const { t } = useTranslation('adminUsers')
  const words = useWords()
  const money = (minor: unknown, currency: unknown) => words.money(Number(minor), String(currency))
  const facts = (a: AuditEntry) => {
    const p = a.params
    if (!p) return ''
    if (a.action === 'decide_dispute')
      return t(`auditFacts.decide_dispute_${p.outcome}`, {
        refund: money(p.refundMinor, p.currency),
        release: money(p.releaseMinor, p.currency),
      })
    return t(`auditFacts.${a.action}`, { ...p, defaultValue: '' })
  }
  return (a: AuditEntry) => [facts(a), a.reason ?? ''].filter(Boolean).join(' — ')
}

/** The audit list's cells for one row: what (action and object), the move, and why. */
export function useAuditCells() {
  const words = useAuditWords()
  const why = useAuditWhy()
  return (a: AuditEntry) => ({
    what: (
      <>
        {words.action(a)} · {words.object(a)}
      </>
    ),
    move: words.move(a),
    why: why(a) ? <span className="prewrap">{why(a)}</span> : '',
  })
}

/** One object's history, newest first: who did what, the move, and why. */
export function AuditTimeline({ entries, empty }: { entries: AuditEntry[]; empty: string }) {
  const words = useAuditWords()
  const why = useAuditWhy()
  return (
    <Timeline
      events={entries.map((a) => ({
        id: a.id,
        at: a.at,
        text: (
          <>
            {words.t('adminUsers:audit.by', { actor: a.actor.name, action: words.action(a) })}
            {a.toState ? ` (${words.move(a)})` : ''}
            {why(a) ? <span className="prewrap">{` — ${why(a)}`}</span> : null}
          </>
        ),
      }))}
      empty={empty}
    />
  )
}
