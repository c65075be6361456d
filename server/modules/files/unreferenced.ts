import type { DB } from '#server/db/database.ts'
import { ORPHAN_AGE_MS, releaseFiles, type Executor } from './lifecycle.ts'

/** Of these file ids (all of one purpose), the ones a row of the module that registered it still points at. */
export type References = (executor: Executor, ids: number[]) => Promise<Iterable<number>>

/**
 * Releases file rows older than `olderThanMs` that nothing points at any more (an upload whose
 * owner row was never written, a reference a module cleared without releasing): only of purposes
 * whose module said how to find their references, so a file of any other purpose is never taken.
 * Each batch is checked again inside the transaction that releases it.
 */
export async function releaseUnreferenced(
  db: DB,
  references: ReadonlyMap<string, References>,
  { olderThanMs = ORPHAN_AGE_MS, now = Date.now() } = {},
) {
  const before = new Date(now - olderThanMs).toISOString()
  let released = 0
  for (const [purpose, referenced] of references) {
    const unreferenced = async (executor: Executor, of: number[]) => {
      const kept = new Set(await referenced(executor, of))
      return of.filter((id) => !kept.has(id))
    }
    let after = 0
    for (;;) {
      const ids = (
        await db
          .selectFrom('stored_file')
          .select('id')
          .where('purpose', '=', purpose)
          .where('created_at', '<', before)
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute()
      ).map((r) => r.id)
      if (!ids.length) break
      after = ids.at(-1)!
      const candidates = await unreferenced(db, ids)
      if (candidates.length)
        released += await db
          .transaction()
          .execute(async (trx) => releaseFiles(trx, await unreferenced(trx, candidates)))
    }
  }
  return released
}
