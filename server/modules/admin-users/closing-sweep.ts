import { periodicJob } from '#server/jobs/periodic.ts'
import { CLOSING_GRACE_DAYS } from '../identity/close-account.ts'
import { erasePersonalData } from './erase.ts'
import type { AdminUsersDeps } from './shared.ts'

// Accounts their owners closed (issue 42 item 3, decision 330) are erased, as an admin's deletion
// erases them (decision 236), once CLOSING_GRACE_DAYS have passed without a sign-in. Each one in its
// own transaction that checks again it is still closing, so a sign-in at the last moment keeps the
// account, and two instances running the sweep erase it once.
const HOUR_MS = 3_600_000
const BATCH = 100

export async function eraseClosedAccounts({ db, dialect, identity }: AdminUsersDeps, now = Date.now()) {
  const due = new Date(now - CLOSING_GRACE_DAYS * 86_400_000).toISOString()
  const closed = await db
    .selectFrom('app_user')
    .select('id')
    .where('closing_at', 'is not', null)
    .where('closing_at', '<=', due)
    .where('status', '!=', 'Deleted')
    .limit(BATCH)
    .execute()
  let erased = 0
  for (const { id } of closed)
    await db.transaction().execute(async (trx) => {
      let q = trx.selectFrom('app_user').select(['closing_at', 'status']).where('id', '=', id)
      if (dialect === 'postgres') q = q.forUpdate()
      const row = await q.executeTakeFirst()
      if (!row?.closing_at || row.closing_at > due || row.status === 'Deleted') return
      await erasePersonalData(trx, dialect, id)
      await identity.setStatus(trx, id, 'Deleted')
      erased++
    })
  return erased
}

export const createClosingSweep = (deps: AdminUsersDeps) =>
  periodicJob(() => eraseClosedAccounts(deps), HOUR_MS)
