import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, badRequest, notFound } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import { searchKeys } from './matching.ts'
import { waitingMatches } from './waiting.ts'
import {
  MAX_SAVED_SEARCHES,
  savedFilters,
  type AlertFrequency,
  type SavedFilters,
  type SavedSearch,
  type SavedSearchChange,
  type SavedSearchInput,
  type SavedSearchKind,
} from './schemas.ts'

// A person's saved searches (issue 41 item 1): a freelancer saves Find Project searches, a client
// Find Freelancers searches. Each is its owner's alone: another person's id answers 404, as an
// unknown one does. Keys for matching (matching.ts) are written with the search, in its transaction.

type Row = Selectable<Database['saved_search']>
type Executor = Pick<DB, 'selectFrom' | 'insertInto' | 'deleteFrom' | 'updateTable'>
const DAY = 86_400_000

/** When the next digest of a search with this frequency is due, from `now`. */
export const nextDigest = (frequency: string, now: number) =>
  new Date(now + (frequency === 'weekly' ? 7 : 1) * DAY).toISOString()

const isClient = (c: Caller) => c.roles.includes(Role.Client) || c.roles.includes(Role.Company)
const isFreelancer = (c: Caller) => c.roles.includes(Role.Freelancer)

/** Freelancers alert on projects, clients on freelancers. */
export function mayKeep(caller: Caller, kind: SavedSearchKind) {
  if (kind === 'project' ? !isFreelancer(caller) : !isClient(caller))
    throw new ApiError(
      403,
      'Forbidden',
      kind === 'project'
        ? 'Only freelancers save Find Project searches'
        : 'Only clients and companies save Find Freelancers searches',
    )
}

/** A stored search's filters; a row that cannot be read has none. */
export function filtersOf(row: Pick<Row, 'filters'>): SavedFilters {
  const parsed = savedFilters.safeParse(JSON.parse(row.filters))
  return parsed.success ? parsed.data : savedFilters.parse({})
}

function present(row: Row, newMatches: number): SavedSearch {
  return {
    id: row.id,
    kind: row.kind as SavedSearchKind,
    name: row.name,
    frequency: row.frequency as AlertFrequency,
    active: row.active === 1,
    fromProfile: row.from_profile === 1,
    filters: filtersOf(row),
    newMatches,
    createdAt: row.created_at,
  }
}

/** The filters' categories and skills exist (a 400 naming the field otherwise). */
async function checkCatalogue(db: DB, f: SavedFilters) {
  if (f.categoryId) {
    const found = await db
      .selectFrom('category')
      .select('id')
      .where('id', '=', f.categoryId)
      .executeTakeFirst()
    if (!found) throw badRequest('categoryId', 'is not a known category')
  }
  if (f.subcategoryId) {
    const sub = await db
      .selectFrom('subcategory')
      .select('category_id')
      .where('id', '=', f.subcategoryId)
      .executeTakeFirst()
    if (!sub) throw badRequest('subcategoryId', 'is not a known subcategory')
    if (f.categoryId && sub.category_id !== f.categoryId)
      throw badRequest('subcategoryId', 'is not in the chosen category')
  }
  const skills = [...new Set(f.skills)]
  if (skills.length) {
    const found = await db.selectFrom('skill').select('id').where('id', 'in', skills).execute()
    if (found.length !== skills.length) throw badRequest('skills', 'contains an unknown skill')
  }
}

/** Writes the search's matching keys anew (its filters changed, or it is new). */
export async function writeKeys(trx: Executor, id: number, kind: string, f: SavedFilters) {
  await trx.deleteFrom('saved_search_key').where('saved_search_id', '=', id).execute()
  await trx
    .insertInto('saved_search_key')
    .values(searchKeys(f).map((key) => ({ kind, key, saved_search_id: id })))
    .execute()
}

/** Stores a saved search with its keys; `fromProfile` marks a freelancer's first alert. */
export async function insertSearch(
  trx: Executor,
  ownerId: number,
  values: { kind: SavedSearchKind; name: string; frequency: AlertFrequency; filters: SavedFilters },
  fromProfile = false,
  now = Date.now(),
) {
  const at = new Date(now).toISOString()
  const { id } = await trx
    .insertInto('saved_search')
    .values({
      owner_id: ownerId,
      kind: values.kind,
      name: values.name,
      filters: JSON.stringify(values.filters),
      frequency: values.frequency,
      from_profile: fromProfile ? 1 : 0,
      digest_due_at: nextDigest(values.frequency, now),
      digest_since: at,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await writeKeys(trx, id, values.kind, values.filters)
  return id
}

async function own(db: DB, caller: Caller, id: number) {
  const row = await db
    .selectFrom('saved_search')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', caller.userId)
    .executeTakeFirst()
  if (!row) throw notFound('Saved search')
  return row
}

/** How many matches wait for each search's next digest. */
async function waiting(db: DB, rows: Row[]) {
  const found = await waitingMatches(db, rows, new Date().toISOString())
  return new Map([...found].map(([id, targets]) => [id, targets.length]))
}

export function createSavedSearches({ db }: { db: DB }) {
  async function one(caller: Caller, id: number) {
    const row = await own(db, caller, id)
    return present(row, (await waiting(db, [row])).get(id) ?? 0)
  }
  return {
    async list(caller: Caller) {
      const rows = await db
        .selectFrom('saved_search')
        .selectAll()
        .where('owner_id', '=', caller.userId)
        .orderBy('id')
        .execute()
      const counts = await waiting(db, rows)
      return { data: rows.map((r) => present(r, counts.get(r.id) ?? 0)) }
    },
    get: one,
    async create(caller: Caller, input: SavedSearchInput) {
      mayKeep(caller, input.kind)
      const { name, kind, frequency, ...filters } = input
      await checkCatalogue(db, filters)
      const id = await db.transaction().execute(async (trx) => {
        const kept = await trx
          .selectFrom('saved_search')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', caller.userId)
          .executeTakeFirstOrThrow()
        if (Number(kept.n) >= MAX_SAVED_SEARCHES)
          throw new ApiError(409, 'Conflict', `You keep at most ${MAX_SAVED_SEARCHES} saved searches`)
        return insertSearch(trx, caller.userId, { kind, name, frequency, filters })
      })
      return one(caller, id)
    },
    async change(caller: Caller, id: number, change: SavedSearchChange & { filters?: SavedFilters }) {
      const row = await own(db, caller, id)
      if (change.filters) {
        const f = change.filters
        const projectOnly = (['budgetType', 'budgetMin', 'budgetMax', 'remote'] as const).find(
          (k) => f[k] !== undefined,
        )
        if (row.kind === 'freelancer' && projectOnly)
          throw badRequest(`filters.${projectOnly}`, 'alerts:errors.projectOnly')
        await checkCatalogue(db, f)
      }
      await db.transaction().execute(async (trx) => {
        const frequency = change.frequency ?? row.frequency
        await trx
          .updateTable('saved_search')
          .set({
            name: change.name ?? row.name,
            frequency,
            active: change.active === undefined ? row.active : change.active ? 1 : 0,
            // Edited filters are the owner's own: the search stops following the profile.
            ...(change.filters ? { filters: JSON.stringify(change.filters), from_profile: 0 } : {}),
            ...(frequency !== row.frequency ? { digest_due_at: nextDigest(frequency, Date.now()) } : {}),
            // Turned back on, it waits for the projects published from now (none matched while off).
            ...(change.active && !row.active ? { digest_since: new Date().toISOString() } : {}),
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', id)
          .execute()
        if (change.filters) await writeKeys(trx, id, row.kind, change.filters)
      })
      return one(caller, id)
    },
    async remove(caller: Caller, id: number) {
      await own(db, caller, id)
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('saved_search_key').where('saved_search_id', '=', id).execute()
        await trx.deleteFrom('saved_search').where('id', '=', id).execute()
      })
    },
  }
}
export type SavedSearches = ReturnType<typeof createSavedSearches>
