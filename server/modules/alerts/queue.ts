import type { DB } from '#server/db/database.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { matches, targetKeys, targetWords, type AlertTarget, type TargetFacets } from './matching.ts'
import { NOTICE_EVERY_MS, NOTICE_TOPIC, OWNERS_PER_NOTICE, type Notice, type NoticePart } from './notices.ts'
import type { SavedSearchKind } from './schemas.ts'
import { storedFilters } from './waiting.ts'

// A new target (a published project, a freelancer who newly fits) against the saved searches of
// its kind (decisions 328, 343): the candidates stored under its keys are read in a few queries and
// each is checked in memory. What is written is one row for the target, with its facets and keys
// (the digest finds each search's matches there later), and its in-app notices as outbox rows of
// a few hundred owners each (notices.ts), so this work stays small however many searches match.

/** Rows per statement: well under either database's limit of bound values. */
const CHUNK = 500

const chunks = <T>(all: T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size))

export interface Candidate {
  id: number
  owner_id: number
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
      .select(['s.id', 's.owner_id', 's.filters', 's.notified_at'])
      .where('k.kind', '=', kind)
      .where('k.key', 'in', part)
      .where('s.active', '=', 1)
      .execute()
    for (const r of rows) found.set(r.id, r)
  }
  return [...found.values()]
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

export interface Published {
  kind: SavedSearchKind
  targetId: number
  /** Whose project or profile it is. */
  ownerId: number
  target: AlertTarget
}

/**
 * Stores one target that matched `found` (a target no search meets is not kept) and queues the
 * notices of the searches not told within the hour as they were read, grouped by owner. Answers
 * how many searches matched and how many people are to be told.
 */
export async function queueAlerts(
  db: DB,
  p: Published,
  found: Candidate[],
  notice: Notice,
  now = Date.now(),
) {
  if (!found.length) return { matched: 0, notified: 0 }
  const at = new Date(now).toISOString()
  const before = new Date(now - NOTICE_EVERY_MS).toISOString()
  const owners = new Map<number, number[]>()
  for (const c of found)
    if (c.notified_at === null || c.notified_at <= before)
      owners.set(c.owner_id, [...(owners.get(c.owner_id) ?? []), c.id])
  const words = targetWords(p.target.text)
  const { text: _text, ...facets } = p.target
  const stored: TargetFacets = { ...facets, words }
  await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('alert_target')
      .values({
        kind: p.kind,
        target_id: p.targetId,
        owner_id: p.ownerId,
        facets: JSON.stringify(stored),
        published_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const keys = targetKeys(p.target, words).map((key) => ({
      kind: p.kind,
      key,
      published_at: at,
      alert_target_id: id,
    }))
    for (const part of chunks(keys)) await trx.insertInto('alert_target_key').values(part).execute()
    for (const part of chunks([...owners], OWNERS_PER_NOTICE))
      await enqueue(trx, NOTICE_TOPIC, {
        kind: p.kind,
        targetId: p.targetId,
        notice,
        at,
        owners: part,
      } satisfies NoticePart)
  })
  return { matched: found.length, notified: owners.size }
}
