import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { ClosingBlocker } from '../identity/context.ts'
import { heldStates } from '../projects/machines.ts'
import { userBalances } from './ledger.ts'

type Executor = Kysely<Database> | Transaction<Database>

/**
 * What keeps a person from closing their account (issue 42 item 3): a contract still active on
 * either side, money held for one of their contracts, or money of theirs not yet paid out.
 */
export async function accountClosingBlocker(db: Executor, userId: number): Promise<ClosingBlocker | null> {
  const active = await db
    .selectFrom('contract')
    .select('id')
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('client_id', '=', userId), eb('freelancer_id', '=', userId)]))
    .limit(1)
    .executeTakeFirst()
  if (active) return 'active_contract'
  const held = await db
    .selectFrom('installment as i')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .select('i.id')
    .where('i.status', 'in', [...heldStates])
    .where((eb) => eb.or([eb('c.client_id', '=', userId), eb('c.freelancer_id', '=', userId)]))
    .limit(1)
    .executeTakeFirst()
  const balances = await userBalances(db, userId)
  if (held || balances.some((b) => b.heldMinor > 0)) return 'money_held'
  const inFlight = await db
    .selectFrom('payout')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'requested')
    .limit(1)
    .executeTakeFirst()
  if (inFlight || balances.some((b) => b.availableMinor > 0)) return 'money_owed'
  return null
}
