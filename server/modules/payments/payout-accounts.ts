import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import { requireFreelancer } from '../profiles/access.ts'
import { paymentDestination } from '../profiles/rules.ts'
import type { Trx } from './ledger.ts'
import type { Gateway, GatewayEvent } from './gateways/gateway.ts'

// Payout onboarding (issue 42 item 5, decision 333): the freelancer's connected account at the
// gateway, opened once by the gateway and completed on the gateway's hosted onboarding page. It is
// a payment method of kind `stripe_account` whose id only the gateway gives; its status comes only
// from the gateway's signed account events, never from the browser coming back.

/** Payment Details: where the gateway's onboarding sends the freelancer back. */
export const PAYOUT_DETAILS_PATH = '/peyment-details'
export const payoutAccountStatuses = ['not_set_up', 'incomplete', 'enabled'] as const
export type PayoutAccountStatus = (typeof payoutAccountStatuses)[number]

export interface PayoutAccountDeps {
  db: DB
  dialect: Dialect
  /** the gateway payouts go through; its accounts are the ones that count */
  gateway: Gateway
}

const accountRow = (db: DB | Trx, userId: number, gateway: string) =>
  db
    .selectFrom('payment_method')
    .select(['id', 'kind', 'iban', 'email', 'stripe_account', 'details_submitted', 'payouts_enabled'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'stripe_account')
    .where('account_gateway', '=', gateway)
    .orderBy('id', 'desc')
    .executeTakeFirst()
type AccountRow = NonNullable<Awaited<ReturnType<typeof accountRow>>>

function present(gateway: string, row: AccountRow | undefined) {
  const status: PayoutAccountStatus = !row ? 'not_set_up' : row.payouts_enabled ? 'enabled' : 'incomplete'
  return {
    gateway,
    status,
    paymentMethodId: row?.id ?? null,
    masked: row ? paymentDestination(row).masked : null,
    detailsSubmitted: row?.details_submitted === 1,
  }
}

/** GET Payment/payout-account: the caller's connected account at the current gateway, and its status. */
export async function payoutAccountStatus({ db, gateway }: PayoutAccountDeps, caller: Caller) {
  requireFreelancer(caller)
  return present(gateway.name, await accountRow(db, caller.userId, gateway.name))
}

/** The account the gateway opened, kept once: a twin request that got here first wins (its account is the same at Stripe, by the idempotency key). */
async function keepAccount(deps: PayoutAccountDeps, caller: Caller, accountRef: string) {
  return deps.db.transaction().execute(async (trx) => {
    let me = trx.selectFrom('app_user').select(['first_name', 'last_name']).where('id', '=', caller.userId)
    if (deps.dialect === 'postgres') me = me.forUpdate()
    const user = await me.executeTakeFirstOrThrow()
    const kept = await accountRow(trx, caller.userId, deps.gateway.name)
    if (kept) return kept.stripe_account ?? accountRef
    const now = new Date().toISOString()
    await trx
      .insertInto('payment_method')
      .values({
        user_id: caller.userId,
        kind: 'stripe_account',
        holder_name: `${user.first_name} ${user.last_name}`.trim(),
        iban: null,
        bic: null,
        bank_name: null,
        email: null,
        stripe_account: accountRef,
        account_gateway: deps.gateway.name,
        is_default: 0,
        status: 'active',
        created_at: now,
        updated_at: now,
      })
      .execute()
    return accountRef
  })
}

/**
 * POST Payment/payout-account: opens the caller's connected account at the gateway (once; later
 * presses continue the same one) and answers the gateway's onboarding address for the browser.
 */
export async function startOnboarding(deps: PayoutAccountDeps, caller: Caller) {
  requireFreelancer(caller)
  const { db, gateway } = deps
  if (!gateway.createAccount || !gateway.onboardingLink)
    throw new ApiError(409, 'Conflict', 'This payment gateway does not open payout accounts')
  let accountRef = (await accountRow(db, caller.userId, gateway.name))?.stripe_account
  if (!accountRef) {
    const { email } = await db
      .selectFrom('app_user')
      .select('email')
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow()
    const opened = await gateway.createAccount({ userId: caller.userId, email })
    accountRef = await keepAccount(deps, caller, opened.accountRef)
  }
  const { url } = await gateway.onboardingLink({
    accountRef,
    returnPath: `${PAYOUT_DETAILS_PATH}?onboarding=return`,
    refreshPath: `${PAYOUT_DETAILS_PATH}?onboarding=refresh`,
  })
  return { url }
}

/** A sandbox account's own row, by its id (the sandbox's hosted page). */
export async function findSandboxAccount(db: DB, gateway: string, accountRef: string) {
  const row = await db
    .selectFrom('payment_method')
    .select(['id', 'kind', 'iban', 'email', 'stripe_account', 'details_submitted', 'payouts_enabled'])
    .where('kind', '=', 'stripe_account')
    .where('account_gateway', '=', gateway)
    .where('stripe_account', '=', accountRef)
    .executeTakeFirst()
  return row ? present(gateway, row) : null
}

/**
 * A gateway's account.updated event, in the callback's transaction: the account's status as the
 * gateway reports it. An account that can be paid becomes the default when its owner has none.
 */
export async function applyAccountEvent(trx: Trx, gateway: string, event: GatewayEvent) {
  const row = await trx
    .selectFrom('payment_method')
    .select(['id', 'user_id'])
    .where('kind', '=', 'stripe_account')
    .where('account_gateway', '=', gateway)
    .where('stripe_account', '=', event.paymentToken)
    .executeTakeFirst()
  if (!row) return false
  const enabled = event.payoutsEnabled === true
  await trx
    .updateTable('payment_method')
    .set({
      details_submitted: event.detailsSubmitted ? 1 : 0,
      payouts_enabled: enabled ? 1 : 0,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', row.id)
    .execute()
  const hasDefault = await trx
    .selectFrom('payment_method')
    .select('id')
    .where('user_id', '=', row.user_id)
    .where('is_default', '=', 1)
    .where('status', '=', 'active')
    .executeTakeFirst()
  if (enabled && !hasDefault)
    await trx
      .updateTable('payment_method')
      .set({ is_default: 1 })
      .where('id', '=', row.id)
      .where('status', '=', 'active')
      .execute()
  return true
}

export function createPayoutAccounts(deps: PayoutAccountDeps) {
  return {
    status: (caller: Caller) => payoutAccountStatus(deps, caller),
    start: (caller: Caller) => startOnboarding(deps, caller),
    find: (gatewayName: string, accountRef: string) => findSandboxAccount(deps.db, gatewayName, accountRef),
    applyEvent: applyAccountEvent,
  }
}
export type PayoutAccounts = ReturnType<typeof createPayoutAccounts>
