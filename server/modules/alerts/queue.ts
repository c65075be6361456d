import type { DB } from '#server/db/database.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { NotificationInput } from '../notifications/service.ts'
import { matches, targetKeys, targetWords, type AlertTarget } from './matching.ts'
import type { SavedFilters, SavedSearchKind } from './schemas.ts'

// A new target (a published project, a freelancer who newly fits) against the saved searches of
// its kind: the candidates stored under its keys are read in a few queries, each is checked in
// memory, and every new match is queued at once, in one transaction: a match row for the digest,
// and for a search not told within the hour, its in-app notification. The notifications' hub
// messages go through the outbox (ANNOUNCE_TOPIC), so this work does not wait on any browser.

export const ANNOUNCE_TOPIC = 'alerts.announce'
/** An in-app notice per saved search at most this often. */
export const NOTICE_EVERY_MS = 3_600_000
/** Rows per statement: well under either database's limit of bound values. */
const CHUNK = 500

const chunks = <T>(all: T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size))

export interface Candidate {
  id: number
  owner_id: number
  name: string
  filters: string
  notified_at: string | null
}

/** The active searches of this kind stored under any of the target's keys, each once. */
export async function candidates(db: DB, kind: SavedSearchKind, keys: string[]) {
  const found = new Map<number, Candidate>()
  for (const part of chunks(keys)) {
    const rows = await db
      .selectFrom('saved_search_key as k')
      .innerJoin('saved_search as s', 's.id', 'k.saved_search_id')
      .select(['s.id', 's.owner_id', 's.name', 's.filters', 's.notified_at'])
      .where('k.kind', '=', kind)
      .where('k.key', 'in', part)
      .where('s.active', '=', 1)
      .execute()
    for (const r of rows) found.set(r.id, r)
  }
  return [...found.values()]
}

/**
 * A stored search's filters as this module wrote them (validated by the schema when saved). Read
 * without zod: a published project checks thousands of candidates, and parsing each with the
 * schema cost most of the matching's time (decision 328).
 */
function storedFilters(text: string): SavedFilters {
  const f = JSON.parse(text) as Partial<SavedFilters>
  return { ...f, skills: Array.isArray(f.skills) ? f.skills : [] }
}

/** The searches of `kind` that the target meets, leaving out its own owner. */
export async function matchingSearches(
  db: DB,
  kind: SavedSearchKind,
  target: AlertTarget,
  ownerOfTarget: number,
) {
  const words = targetWords(target.text)
  const all = await candidates(db, kind, targetKeys(target, words))
  const cache = new Map<string, string[]>()
  return all.filter(
    (c) => c.owner_id !== ownerOfTarget && matches(storedFilters(c.filters), target, words, cache),
  )
}

export interface Notice {
  /** The message of the notification (alerts:notify.project or alerts:notify.freelancer). */
  messageKey: string
  params: Record<string, string | number>
  projectId: number | null
}

/**
 * Queues the alerts of one target for the searches it matched: match rows (a target already
 * matched is not queued again), and a notification for each search whose last one is an hour old.
 * Answers how many searches matched anew and how many were notified.
 */
export async function queueAlerts(
  db: DB,
  found: Candidate[],
  targetId: number,
  notice: Notice,
  record: (trx: DB, items: NotificationInput[]) => Promise<unknown>,
  now = Date.now(),
) {
  const at = new Date(now).toISOString()
  const before = new Date(now - NOTICE_EVERY_MS).toISOString()
  const byId = new Map(found.map((c) => [c.id, c]))
  return db.transaction().execute(async (trx) => {
    let fresh = 0
    const told: Array<[number, string]> = []
    for (const part of chunks(found)) {
      const inserted = await trx
        .insertInto('saved_search_match')
        .values(part.map((c) => ({ saved_search_id: c.id, target_id: targetId, matched_at: at })))
        .onConflict((oc) => oc.columns(['saved_search_id', 'target_id']).doNothing())
        .returning('saved_search_id')
        .execute()
      fresh += inserted.length
      // At most one notice per search an hour: only the searches this update moves are told. Those
      // told within the hour as they were read are left out before asking (most, once alerts flow).
      const maybeDue = inserted
        .map((r) => r.saved_search_id)
        .filter((id) => {
          const told = byId.get(id)!.notified_at
          return told === null || told <= before
        })
      if (!maybeDue.length) continue
      const due = await trx
        .updateTable('saved_search')
        .set({ notified_at: at })
        .where('id', 'in', maybeDue)
        .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<=', before)]))
        .returning(['id', 'owner_id'])
        .execute()
      const items = due.map((d) => ({
        userId: d.owner_id,
        source: `alert:${d.id}:${targetId}`,
        messageKey: notice.messageKey,
        params: { ...notice.params, search: byId.get(d.id)!.name },
        type: 'SavedSearch' as const,
        projectId: notice.projectId,
      }))
      await record(trx, items)
      for (const i of items) told.push([i.userId, i.source])
    }
    if (told.length) await enqueue(trx, ANNOUNCE_TOPIC, { told })
    return { matched: fresh, notified: told.length }
  })
}
