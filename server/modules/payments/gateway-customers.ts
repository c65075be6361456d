import type { DB } from '#server/db/database.ts'
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
