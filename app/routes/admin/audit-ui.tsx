import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Timeline } from '~/components/ui/timeline'
import type { AuditEntry } from '#server/modules/complaints/contract.ts'

// One audit row in words (decision 238), for the audit list and a user's history: the action, the
// object it was done to (a link where the admin area has a page for it) and the move from → to.
// Rows come from every admin part: an action or state is named by the part's own words where they
// exist (users here, tickets in `complaints`, the state machines' in `ui`), else shown as stored.
const objectPages: Record<string, string> = { user: '/admin/users', complaint: '/admin/complaints' }

function useAuditWords() {
  const { t } = useTranslation(['adminUsers', 'complaints', 'ui'])
  const action = (a: AuditEntry) =>
    a.objectType === 'complaint'
      ? t(`complaints:admin.actions.${a.action}`, { defaultValue: a.action })
      : t(`adminUsers:auditActions.${a.action}`, { defaultValue: a.action })
  const state = (type: string, s: string) =>
    type === 'user'
      ? t(`adminUsers:status.${s}`, { defaultValue: s })
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

/** The audit list's cells for one row: what (action and object), the move, and why. */
export function useAuditCells() {
  const words = useAuditWords()
  return (a: AuditEntry) => ({
    what: (
      <>
        {words.action(a)} · {words.object(a)}
      </>
    ),
    move: words.move(a),
    why: a.reason ? <span className="prewrap">{a.reason}</span> : '',
  })
}

/** One object's history, newest first: who did what, the move, and why. */
export function AuditTimeline({ entries, empty }: { entries: AuditEntry[]; empty: string }) {
  const words = useAuditWords()
  return (
    <Timeline
      events={entries.map((a) => ({
        id: a.id,
        at: a.at,
        text: (
          <>
            {words.t('adminUsers:audit.by', { actor: a.actor.name, action: words.action(a) })}
            {a.toState ? ` (${words.move(a)})` : ''}
            {a.reason ? <span className="prewrap">{` — ${a.reason}`}</span> : null}
          </>
        ),
      }))}
      empty={empty}
    />
  )
}
