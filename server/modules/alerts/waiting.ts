import type { DB } from '#server/db/database.ts'
import { matches, type TargetFacets } from './matching.ts'
import type { SavedFilters, SavedSearchKind } from './schemas.ts'

// The new matches of saved searches, found when they are needed (the digest, the count on the list
// of saved searches) instead of stored per search when a target is published (decision 343). A
// publication is one `alert_target` row with its facets and keys; a search's waiting matches are
// the targets published since its last digest under one of its own keys (`saved_search_key`: the
// first alert of a profile without category or skill has none), each checked against its filters
// as at publication, leaving out the search owner's own. A search turned off has none (it starts
// again from when it is turned on, saved-searches.ts).

/** A digest lists at most this far back, so a search switched back on after months stays small. */
export const WINDOW_MS = 14 * 86_400_000
/** Keys per statement: well under either database's limit of bound values. */
const CHUNK = 500

export interface WaitingSearch {
  id: number
  kind: string
  owner_id: number
  filters: string
  active: number
  digest_since: string | null
  created_at: string
}

/**
 * A stored search's filters as this module wrote them (validated by the schema when saved). Read
 * without zod: matching checks thousands of them, and parsing each with the schema cost most of
 * the matching's time (decision 328).
 */
export function storedFilters(text: string): SavedFilters {
  const f = JSON.parse(text) as Partial<SavedFilters>
  return { ...f, skills: Array.isArray(f.skills) ? f.skills : [] }
}

const chunks = <T>(all: T[]) =>
  Array.from({ length: Math.ceil(all.length / CHUNK) }, (_, i) => all.slice(i * CHUNK, (i + 1) * CHUNK))

type Published = {
  key: string
  id: number
  target_id: number
  owner_id: number
  facets: string
  published_at: string
}

/** The targets of `kind` published in (from, until] under any of `keys`, a row per key. */
async function published(db: DB, kind: string, keys: string[], from: string, until: string) {
  const rows: Published[] = []
  for (const part of chunks(keys))
    rows.push(
      ...(await db
        .selectFrom('alert_target_key as k')
        .innerJoin('alert_target as t', 't.id', 'k.alert_target_id')
        .select(['k.key', 't.id', 't.target_id', 't.owner_id', 't.facets', 't.published_at'])
        .where('k.kind', '=', kind)
        .where('k.key', 'in', part)
        .where('k.published_at', '>', from)
        .where('k.published_at', '<=', until)
        .execute()),
    )
  return rows
}

/** Each search's waiting matches at `until` (targets' ids, newest first); searches with none are left out. */
export async function waitingMatches(db: DB, searches: WaitingSearch[], until: string) {
  const found = new Map<number, number[]>()
  if (!searches.length) return found
  const keyRows = await db
    .selectFrom('saved_search_key')
    .select(['saved_search_id', 'key'])
    .where(
      'saved_search_id',
      'in',
      searches.map((s) => s.id),
    )
    .execute()
  const keysOf = new Map<number, string[]>()
  for (const k of keyRows) keysOf.set(k.saved_search_id, [...(keysOf.get(k.saved_search_id) ?? []), k.key])
  const floor = new Date(Date.parse(until) - WINDOW_MS).toISOString()
  for (const kind of ['project', 'freelancer'] satisfies SavedSearchKind[]) {
    const group = searches
      .filter((s) => s.kind === kind && s.active === 1 && keysOf.has(s.id))
      .map((s) => {
        const since = s.digest_since ?? s.created_at
        return { s, keys: keysOf.get(s.id)!, from: since > floor ? since : floor }
      })
    if (!group.length) continue
    const from = group.reduce((min, g) => (g.from < min ? g.from : min), group[0].from)
    const rows = await published(db, kind, [...new Set(group.flatMap((g) => g.keys))], from, until)
    const facets = new Map<number, TargetFacets>()
    const facetsOf = (r: Published) => {
      let f = facets.get(r.id)
      if (!f) facets.set(r.id, (f = JSON.parse(r.facets) as TargetFacets))
      return f
    }
    const byKey = new Map<string, Published[]>()
    for (const r of rows) {
      const under = byKey.get(r.key)
      if (under) under.push(r)
      else byKey.set(r.key, [r])
    }
    const cache = new Map<string, string[]>()
    for (const { s, keys, from: since } of group) {
      const filters = storedFilters(s.filters)
      // A target is found once, at its newest publication that the search meets.
      const seen = new Map<number, string>()
      for (const r of keys.flatMap((k) => byKey.get(k) ?? [])) {
        if (r.published_at <= since || r.owner_id === s.owner_id) continue
        if ((seen.get(r.target_id) ?? '') >= r.published_at) continue
        const t = facetsOf(r)
        if (matches(filters, t, t.words, cache)) seen.set(r.target_id, r.published_at)
      }
      if (seen.size)
        found.set(
          s.id,
          [...seen].sort((a, b) => (a[1] < b[1] ? 1 : -1)).map(([id]) => id),
        )
    }
  }
  return found
}
