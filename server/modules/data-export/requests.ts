import { Readable } from 'node:stream'
import type { Selectable } from 'kysely'
import { ApiError } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { DataExportTable } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { FileStorage } from '../files/storage.ts'
import { sha256 } from '../identity/tokens.ts'
import type { DataExportState } from './contract.ts'

// A person asks for their data, sees how it stands, and downloads it (issue 42 item 2, decision
// 331). One request is prepared at a time and one is taken a day; the archive is the caller's
// alone: the download needs the owner's session, and the mailed link's token only names which
// archive, so a forwarded or leaked link opens nothing for anyone else (404, as after expiry).

export const DATA_EXPORT_TOPIC = 'identity.data-export'
export const EXPORT_VALID_DAYS = 7
export const EXPORT_EVERY_HOURS = 24
const HOUR_MS = 3_600_000

export interface DataExportDeps {
  db: DB
  dialect: Dialect
  /** Where archives are kept: apart from uploads, so the uploads' sweeps never see them. */
  archives: FileStorage
  /** The uploads' storage: the person's own files go into their archive. */
  uploads: FileStorage
  publicUrl: string
}

type ExportRow = Selectable<DataExportTable>

const latest = (db: DB, userId: number) =>
  db
    .selectFrom('data_export')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst()

/** When the person may ask again after this request: a day after it, unless it failed. */
const nextAfter = (row: ExportRow) =>
  row.status === 'failed'
    ? null
    : new Date(Date.parse(row.requested_at) + EXPORT_EVERY_HOURS * HOUR_MS).toISOString()

export function stateOf(row: ExportRow | undefined, now = Date.now()): DataExportState {
  if (!row) return { state: 'none', requestedAt: null, readyAt: null, expiresAt: null, nextRequestAt: null }
  const next = nextAfter(row)
  const expired = row.status === 'expired' || (row.status === 'ready' && Date.parse(row.expires_at!) <= now)
  return {
    state: expired ? 'expired' : row.status,
    requestedAt: row.requested_at,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
    nextRequestAt: row.status !== 'preparing' && next && Date.parse(next) > now ? next : null,
  }
}

export async function exportState({ db }: DataExportDeps, caller: Caller) {
  return stateOf(await latest(db, caller.userId))
}

export async function requestExport(deps: DataExportDeps, caller: Caller) {
  const { db, dialect } = deps
  return db.transaction().execute(async (trx) => {
    // One request at a time per person, on every instance: the person's row is the lock (SQLite's
    // BEGIN IMMEDIATE already serialises), and the partial unique index is the last word.
    if (dialect === 'postgres')
      await trx.selectFrom('app_user').select('id').where('id', '=', caller.userId).forUpdate().execute()
    const last = await latest(trx, caller.userId)
    if (last?.status === 'preparing')
      throw new ApiError(
        409,
        'Conflict',
        'Your data is being prepared already',
        undefined,
        'export_in_progress',
      )
    const next = last && nextAfter(last)
    if (next && Date.parse(next) > Date.now()) {
      const error = new ApiError(
        429,
        'Too Many Requests',
        `You can ask for your data once a day: again after ${next}`,
        undefined,
        'export_rate_limited',
      )
      error.headers = { 'retry-after': String(Math.ceil((Date.parse(next) - Date.now()) / 1000)) }
      throw error
    }
    const row = await trx
      .insertInto('data_export')
      .values({ user_id: caller.userId, status: 'preparing', requested_at: new Date().toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow()
    await enqueue(trx, DATA_EXPORT_TOPIC, { exportId: row.id })
    return stateOf(row)
  })
}

const notFound = () => new ApiError(404, 'Not Found', 'No export of your data is ready to download')

/** The caller's ready archive: the one the token names, or without a token their latest. */
export async function downloadExport(deps: DataExportDeps, caller: Caller, token: string | undefined) {
  const { db } = deps
  let q = db.selectFrom('data_export').selectAll().where('user_id', '=', caller.userId)
  q = token ? q.where('token_hash', '=', sha256(token)) : q.where('status', '=', 'ready')
  const row = await q.orderBy('id', 'desc').executeTakeFirst()
  const now = new Date().toISOString()
  if (row?.status !== 'ready' || !row.archive_key || !row.expires_at || row.expires_at <= now)
    throw notFound()
  await db
    .updateTable('data_export')
    .set({ downloaded_at: now })
    .where('id', '=', row.id)
    .where('downloaded_at', 'is', null)
    .execute()
  const day = row.ready_at!.slice(0, 10)
  return new Response(Readable.toWeb(deps.archives.read(row.archive_key)) as ReadableStream, {
    headers: {
      ...(row.archive_size == null ? {} : { 'content-length': String(row.archive_size) }),
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="workneer-data-${day}.zip"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}
