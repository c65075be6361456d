import type { Db } from '../db/database.ts'
import { pendingMigrations } from '../db/database.ts'
import { sql } from 'kysely'

// /healthz says the process is alive; /readyz that it can serve: database reachable, schema current.
export async function readiness(database: Db) {
  try {
    await sql`select 1`.execute(database.db)
    const pending = await pendingMigrations(database)
    if (pending.length) return { ok: false, detail: `migrations pending: ${pending.join(', ')}` }
    return { ok: true, detail: 'ready' }
  } catch (error) {
    return { ok: false, detail: `database unreachable: ${(error as Error).message}` }
  }
}
