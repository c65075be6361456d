import type { Migration } from './helpers.ts'

// Stripe payouts (decision 196): a freelancer's payment method may be a Stripe connected account
// (kind 'stripe_account'), paid by transfers; its id (acct_…) is kept here.
export const stripeAccounts: Migration = {
  async up(db) {
    await db.schema.alterTable('payment_method').addColumn('stripe_account', 'text').execute()
  },
}
