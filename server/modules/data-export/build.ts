import fs from 'node:fs'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { enqueue, type OutboxHandler } from '#server/jobs/outbox.ts'
import { periodicJob } from '#server/jobs/periodic.ts'
import { renderMail } from '../identity/mails.ts'
import { randomToken, sha256 } from '../identity/tokens.ts'
import { collectSections, ownFiles } from './collect.ts'
import { DATA_EXPORT_TOPIC, EXPORT_EVERY_HOURS, EXPORT_VALID_DAYS, type DataExportDeps } from './requests.ts'

// The export's background work (decision 331). The outbox delivers a request to one instance (its
// claim on the row); should a slow build outlive the claim and a second instance build it too,
// only the first to turn the row from `preparing` to `ready` keeps its archive and sends the mail,
// the other removes its own. The hourly sweep removes archives past their 7 days (and those of
// erased accounts) and gives up on a request still preparing after a day.
const DAY_MS = 86_400_000

async function build(deps: DataExportDeps, exportId: number) {
  const { db } = deps
  const row = await db
    .selectFrom('data_export')
    .innerJoin('app_user', 'app_user.id', 'data_export.user_id')
    .select(['data_export.user_id', 'app_user.email', 'app_user.first_name', 'app_user.language'])
    .where('data_export.id', '=', exportId)
    .where('data_export.status', '=', 'preparing')
    .where('app_user.status', '!=', 'Deleted')
    .executeTakeFirst()
  if (!row) return
  const files = await ownFiles(db, row.user_id)
  // The zip and CSV writers load with the first export, not at the server's start.
  const { writeArchive } = await import('./archive.ts')
  const temporary = deps.archives.temporary()
  try {
    await writeArchive(
      temporary.path,
      { workneer: 'data export', userId: row.user_id, generatedAt: new Date().toISOString() },
      await collectSections(db, row.user_id),
      files.map((f) => ({ ...f, read: () => deps.uploads.read(f.storage_key) })),
    )
    const size = (await fs.promises.stat(temporary.path)).size
    const key = await deps.archives.keep(temporary.path)
    if (!(await markReady(deps, exportId, key, size, row))) await deps.archives.remove(key)
  } finally {
    await temporary.remove()
  }
}

/** Turns the request ready and mails its link, if it is still preparing (false: someone else did). */
async function markReady(
  deps: DataExportDeps,
  exportId: number,
  key: string,
  size: number,
  person: { email: string; first_name: string; language: string },
) {
  const token = randomToken()
  const now = Date.now()
  const expiresAt = new Date(now + EXPORT_VALID_DAYS * DAY_MS).toISOString()
  return deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('data_export')
      .set({
        status: 'ready',
        token_hash: sha256(token),
        archive_key: key,
        archive_size: size,
        ready_at: new Date(now).toISOString(),
        expires_at: expiresAt,
      })
      .where('id', '=', exportId)
      .where('status', '=', 'preparing')
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return false
    const link = new URL('/profile/account-settings/data-export/download', deps.publicUrl)
    link.searchParams.set('token', token)
    await enqueue(
      trx,
      EMAIL_TOPIC,
      renderMail('dataExportReady', {
        to: person.email,
        language: person.language,
        name: person.first_name,
        link: link.href,
        vars: {
          date: new Date(expiresAt).toLocaleDateString(person.language, {
            dateStyle: 'long',
            timeZone: 'UTC',
          }),
        },
      }),
    )
    return true
  })
}

export const dataExportOutboxHandlers = (deps: DataExportDeps): Record<string, OutboxHandler> => ({
  [DATA_EXPORT_TOPIC]: ({ exportId }: { exportId: number }) => build(deps, exportId),
})

/** Removes archives past their days (or of erased accounts), then marks requests stuck for a day failed. */
export async function sweepDataExports(deps: Pick<DataExportDeps, 'db' | 'archives'>, now = Date.now()) {
  const { db } = deps
  const at = new Date(now).toISOString()
  const due = await db
    .selectFrom('data_export')
    .select(['id', 'archive_key'])
    .where('status', '=', 'ready')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', at),
        eb('user_id', 'in', eb.selectFrom('app_user').select('id').where('status', '=', 'Deleted')),
      ]),
    )
    .limit(100)
    .execute()
  // Bytes first, then the row: removing bytes twice is harmless, so two instances may both try.
  for (const row of due) {
    if (row.archive_key) await deps.archives.remove(row.archive_key)
    await db
      .updateTable('data_export')
      .set({ status: 'expired', archive_key: null, token_hash: null })
      .where('id', '=', row.id)
      .where('status', '=', 'ready')
      .execute()
  }
  const stuck = await db
    .updateTable('data_export')
    .set({ status: 'failed' })
    .where('status', '=', 'preparing')
    .where('requested_at', '<=', new Date(now - EXPORT_EVERY_HOURS * 3_600_000).toISOString())
    .executeTakeFirst()
  return { expired: due.length, failed: Number(stuck.numUpdatedRows) }
}

export const createDataExportSweep = (deps: Pick<DataExportDeps, 'db' | 'archives'>) =>
  periodicJob(() => sweepDataExports(deps), 3_600_000)
