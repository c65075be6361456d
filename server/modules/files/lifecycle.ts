import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Logger } from '#server/log.ts'
import { enqueue, type OutboxHandler } from '#server/jobs/outbox.ts'
import type { FileStorage } from './storage.ts'
import { periodicJob } from '#server/jobs/periodic.ts'

// File bytes follow their rows (docs/decisions/012-file-bytes-follow-rows.md). Bytes are removed
// only after the transaction that deleted their row has committed, never before:
// - `releaseFiles(trx, ids)` deletes stored_file rows in the caller's transaction and writes an
//   outbox row naming their storage keys; the outbox removes the bytes after commit. A rollback
//   keeps rows and bytes; a crash after commit leaves the outbox row, delivered on restart.
// - `sweepOrphanBytes` removes stored bytes that have had no stored_file row for over an hour (rows
//   that other modules delete, an upload whose row was never written). An upload writes its bytes
//   just before its row, so the hour keeps uploads in flight safe.
// - The file service's `releaseUnreferenced` releases stored_file rows over an hour old that no
//   row of their module points at (modules declare their references with `setReferences`).
export type Executor = Kysely<Database> | Transaction<Database>

export const FILE_BYTES_TOPIC = 'files.remove-bytes'
export const ORPHAN_AGE_MS = 60 * 60 * 1000

/** Deletes these file rows in the caller's transaction and schedules their bytes' removal for after it commits. */
export async function releaseFiles(trx: Executor, ids: ReadonlyArray<number | null | undefined>) {
  const wanted = [...new Set(ids.filter((id): id is number => id != null))]
  if (!wanted.length) return 0
  const rows = await trx
    .selectFrom('stored_file')
    .select(['id', 'storage_key'])
    .where('id', 'in', wanted)
    .execute()
  if (!rows.length) return 0
  await trx
    .deleteFrom('stored_file')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute()
  await enqueue(trx, FILE_BYTES_TOPIC, { keys: rows.map((r) => r.storage_key) })
  return rows.length
}

/** Of these keys, the ones no stored_file row names (their bytes may go). */
async function unowned(db: Kysely<Database>, keys: string[]) {
  if (!keys.length) return []
  const live = new Set(
    (await db.selectFrom('stored_file').select('storage_key').where('storage_key', 'in', keys).execute()).map(
      (r) => r.storage_key,
    ),
  )
  return keys.filter((k) => !live.has(k))
}

/** The outbox handler that removes released bytes (removing bytes that are already gone is fine). */
export function fileOutboxHandlers({
  db,
  storage,
}: {
  db: Kysely<Database>
  storage: FileStorage
}): Record<string, OutboxHandler> {
  return {
    [FILE_BYTES_TOPIC]: async (payload: { keys: string[] }) => {
      for (const key of await unowned(db, payload.keys)) await storage.remove(key)
    },
  }
}

/** Removes stored bytes older than `olderThanMs` that no row names; answers how many went. */
export async function sweepOrphanBytes({
  db,
  storage,
  olderThanMs = ORPHAN_AGE_MS,
  now = Date.now(),
}: {
  db: Kysely<Database>
  storage: FileStorage
  olderThanMs?: number
  now?: number
}) {
  let removed = 0
  let batch: string[] = []
  const flush = async () => {
    for (const key of await unowned(db, batch)) {
      await storage.remove(key)
      removed++
    }
    batch = []
  }
  for await (const entry of storage.list()) {
    if (now - entry.modifiedAt.getTime() < olderThanMs) continue
    batch.push(entry.key)
    if (batch.length >= 500) await flush()
  }
  await flush()
  return removed
}

/** Runs the sweep every `everyMs` (an hour by default) while the server runs. */
export function createFileSweeper({
  db,
  storage,
  log,
  releaseUnreferenced = async () => 0,
  everyMs = ORPHAN_AGE_MS,
}: {
  db: Kysely<Database>
  storage: FileStorage
  log: Logger
  releaseUnreferenced?: () => Promise<number>
  everyMs?: number
}) {
  return periodicJob(
    () =>
      releaseUnreferenced()
        .then((released) => released && log.info({ released }, 'released file rows that nothing points at'))
        .then(() => sweepOrphanBytes({ db, storage }))
        .then((removed) => removed && log.info({ removed }, 'removed stored bytes whose file row is gone'))
        .catch((error) => log.error({ err: error }, 'file sweep failed')),
    everyMs,
  )
}
