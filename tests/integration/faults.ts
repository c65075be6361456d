import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
import pg from 'pg'
import type { Db } from '#server/db/database.ts'
import { OUTBOX_LOCK_MS, OUTBOX_SETTLE_MS } from '#server/jobs/outbox.ts'
import { postgresAdminUrl } from './databases.ts'

// The faults crash-restart.test.ts strikes a server with, and the end of the claims they left.

/** What a PostgreSQL restart does to each client: its connections end under it (not our own). */
export async function dropConnections(url: string) {
  const database = new URL(url).pathname.slice(1)
  const admin = new pg.Client({ connectionString: postgresAdminUrl })
  await admin.connect()
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [database],
  )
  await admin.end()
}

/**
 * Ends the outbox claims made before `fault` (they end before `fault` plus a claim's length; the
 * claims of the server that runs now end later) as the clock would, so that the running server's
 * poll takes their rows again now. A killed server's claims are ended at once; after a database fault
 * the running server's own earlier claims first get the time they settle in (outbox-delivery.ts), so
 * only those whose done mark was lost with the connection are left. Answers how many rows it freed.
 */
export async function endClaimsBefore(check: Db, fault: number, killed: boolean) {
  const settled = killed ? fault : fault + OUTBOX_SETTLE_MS
  if (Date.now() < settled) await new Promise((r) => setTimeout(r, settled - Date.now()))
  const freed = await check.db
    .updateTable('outbox')
    .set({ locked_until: new Date(Date.now() - 1).toISOString() })
    .where('status', '=', 'pending')
    .where('locked_until', '<', new Date(fault + OUTBOX_LOCK_MS).toISOString())
    .executeTakeFirst()
  return Number(freed.numUpdatedRows)
}

export function restartPostgres() {
  const version = fs.readdirSync('/etc/postgresql')[0]
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], {
    stdio: 'ignore',
  })
}
