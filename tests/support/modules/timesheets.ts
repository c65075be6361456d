import type { Db } from '#server/db/database.ts'
import type { moduleTestApi } from '../../integration/module-api.ts'
import { contractFor } from './payments.ts'

// Test helpers for timesheets (decision 324): an hourly contract made from a fixed-price one (its
// installments removed, billed by the hour), started some weeks ago so past days can be logged.
type Call = ReturnType<typeof moduleTestApi>['call']
type U = { id: number; token: string }

export async function hourlyContractFor(
  call: Call,
  database: Db,
  client: U,
  freelancer: U,
  { rateMinor = 8000, limitHours = 40, startedDaysAgo = 28 } = {},
) {
  const c = await contractFor(call, database, client, freelancer, [100000])
  const started = new Date(Date.now() - startedDaysAgo * 86_400_000).toISOString()
  await database.db.deleteFrom('installment').where('contract_id', '=', c.contractId).execute()
  await database.db
    .updateTable('contract')
    .set({
      billing: 'hourly',
      hourly_rate_minor: rateMinor,
      weekly_limit_hours: limitHours,
      amount_minor: 0,
      created_at: started,
    })
    .where('id', '=', c.contractId)
    .execute()
  return { projectId: c.projectId, contractId: c.contractId }
}

/** A day `n` days before today (UTC), as YYYY-MM-DD. */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

/** The Monday of the week `n` weeks before this one. */
export function mondayWeeksAgo(n: number) {
  const today = new Date()
  const weekday = (today.getUTCDay() + 6) % 7
  return daysAgo(weekday + 7 * n)
}
