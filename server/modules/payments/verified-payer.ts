import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'

// "Payment method verified" (decision 332): a client one of whose payments succeeded at the
// gateway. Derived from the payment rows, so there is no state to keep in step; the profiles and
// projects modules ask through this function rather than read the table.

type Executor = Kysely<Database> | Transaction<Database>

/** Which of these clients have paid at least once. */
export async function paidAmong(db: Executor, clientIds: readonly number[]) {
  const ids = [...new Set(clientIds)]
  if (!ids.length) return new Set<number>()
  const rows = await db
    .selectFrom('payment')
    .select('client_id')
    .distinct()
    .where('client_id', 'in', ids)
    .where('status', '=', 'succeeded')
    .execute()
  return new Set(rows.map((r) => r.client_id))
}
