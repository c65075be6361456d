import type { DB } from '#server/db/database.ts'
import { periodicJob } from '#server/jobs/periodic.ts'
import type { Logger } from '#server/log.ts'
import { ledgerHealth, type LedgerHealth } from './health.ts'

/** How old the ledger's health may be before a page view reads it again (decision 264). */
export const HEALTH_MAX_AGE_MS = 15 * 60_000

export interface HealthSnapshot extends LedgerHealth {
  checkedAt: string
  tookMs: number
}

/**
 * The ledger's health checks read every entry (health.ts). They run every 15 minutes on each
 * instance and when an admin asks ("Run the checks now"); a page view or a metrics scrape reads the
 * last run, so neither costs a whole-ledger read (decision 264). One run at a time: a request that
 * arrives during a run waits for that run rather than starting a second.
 */
export function createLedgerHealthMonitor({
  db,
  log,
  maxAgeMs = HEALTH_MAX_AGE_MS,
  now = () => Date.now(),
}: {
  db: DB
  log: Logger
  maxAgeMs?: number
  now?: () => number
}) {
  let last: HealthSnapshot | null = null
  let running: Promise<HealthSnapshot> | null = null

  function run() {
    running ??= (async () => {
      const started = now()
      const health = await ledgerHealth(db)
      last = { ...health, checkedAt: new Date(started).toISOString(), tookMs: now() - started }
      const failing = health.checks.filter((c) => !c.ok)
      if (failing.length)
        log.error(
          { failing: failing.map((c) => ({ check: c.check, problems: c.problems.length })) },
          'ledger health checks failed',
        )
      return last
    })().finally(() => (running = null))
    return running
  }

  return {
    /** The newest run, read again when it is older than maxAgeMs. */
    latest: () => (last && now() - Date.parse(last.checkedAt) < maxAgeMs ? Promise.resolve(last) : run()),
    /** A fresh run (or the one under way). */
    runNow: run,
    /** The newest run, or null before the first; never reads the ledger (for /metrics). */
    peek: () => last,
    job: (() => {
      const job = periodicJob(
        () => run().catch((error) => log.error({ err: error }, 'ledger health checks could not run')),
        maxAgeMs,
      )
      // A first run at start, so /metrics has figures before the first 15 minutes are up.
      return { start: () => (job.start(), void job.sweep()), stop: job.stop }
    })(),
  }
}
export type LedgerHealthMonitor = ReturnType<typeof createLedgerHealthMonitor>
