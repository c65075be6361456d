import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// Payout onboarding through the gateway (decision 333): a `stripe_account` payment method is now a
// connected account the gateway opened for the freelancer, with the gateway that opened it and the
// status its account events report. Accounts typed in by hand before (decision 196) were opened for
// the freelancer at Stripe by an operator: they stay, as Stripe's; one that was paid out to already
// has proven it takes transfers and starts enabled, the others start incomplete until Stripe's
// next account event or the freelancer's "continue". Frozen (decision 100).
export const payoutOnboarding: Migration = {
  async up(db) {
    await db.schema.alterTable('payment_method').addColumn('account_gateway', 'text').execute()
    await db.schema
      .alterTable('payment_method')
      .addColumn('details_submitted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('payment_method')
      .addColumn('payouts_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db
      .updateTable('payment_method')
      .set({ account_gateway: 'stripe' })
      .where('kind', '=', 'stripe_account')
      .execute()
    await db
      .updateTable('payment_method')
      .set({ details_submitted: 1, payouts_enabled: 1 })
      .where('kind', '=', 'stripe_account')
      .where(
        sql<boolean>`exists (select 1 from payout where payout.payment_method_id = payment_method.id and payout.status = 'paid')`,
      )
      .execute()
    // The account the gateway opened is found by its id when its events arrive.
    await db.schema
      .createIndex('payment_method_account')
      .on('payment_method')
      .columns(['account_gateway', 'stripe_account'])
      .execute()
  },
}
