import type { DB } from '#server/db/database.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { Logger } from '#server/log.ts'
import type { Gateway } from './gateways/gateway.ts'

// A client's customer at a gateway that keeps saved cards under one (Stripe; migration 0051,
// decision 334): created the first time a checkout saves a card, kept, and reused for every later
// checkout and off-session charge. The gateway's idempotency key makes two first checkouts at once
// create one customer there; the unique row keeps one here.

/** The client's customer at this gateway, created once; undefined for a gateway without customers. */
export async function customerFor(db: DB, gateway: Gateway, clientId: number) {
  if (!gateway.createCustomer) return undefined
  const kept = () =>
    db
      .selectFrom('gateway_customer')
      .select('customer_ref')
      .where('client_id', '=', clientId)
      .where('gateway', '=', gateway.name)
      .executeTakeFirst()
  const found = await kept()
  if (found) return found.customer_ref
  const user = await db
    .selectFrom('app_user')
    .select(['email', 'first_name', 'last_name', 'company_name'])
    .where('id', '=', clientId)
    .executeTakeFirstOrThrow()
  const customerRef = await gateway.createCustomer({
    clientId,
    email: user.email,
    name: user.company_name ?? `${user.first_name} ${user.last_name}`,
  })
  await db
    .insertInto('gateway_customer')
    .values({
      client_id: clientId,
      gateway: gateway.name,
      customer_ref: customerRef,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.columns(['client_id', 'gateway']).doNothing())
    .execute()
  return (await kept())!.customer_ref
}

/** The outbox topic of a customer to delete at its gateway once its client's erasure has committed. */
export const CUSTOMER_ERASED_TOPIC = 'payments.customer-erased'

/**
 * In an account's erasure (decision 348): the cards the client saved are forgotten here, and each
 * customer at a gateway is deleted there after commit, which deletes the cards saved under it.
 */
export async function forgetSavedCards(trx: DB, clientId: number) {
  const customers = await trx
    .deleteFrom('gateway_customer')
    .where('client_id', '=', clientId)
    .returning(['gateway', 'customer_ref'])
    .execute()
  await trx.deleteFrom('saved_payment_method').where('client_id', '=', clientId).execute()
  for (const c of customers)
    await enqueue(trx, CUSTOMER_ERASED_TOPIC, { gateway: c.gateway, customerRef: c.customer_ref })
}

/** Deletes an erased client's customer at the gateway that keeps it; a gateway no longer set up has nothing to reach. */
export function customerErasureHandlers(gateways: (Gateway | undefined)[], log: Logger) {
  return {
    [CUSTOMER_ERASED_TOPIC]: async ({ gateway, customerRef }: { gateway: string; customerRef: string }) => {
      const at = gateways.find((g) => g?.name === gateway)
      if (at?.deleteCustomer) return at.deleteCustomer(customerRef)
      log.warn(
        { gateway, customerRef },
        'an erased client’s customer was not deleted: its gateway is not set up',
      )
    },
  }
}
