import { timestampType, type Migration } from './helpers.ts'

// A person closes their own account (issue 42 item 3): `closing_at` is when they asked. For 14 days
// signing in restores the account; after that a job erases it as an admin's deletion does
// (decision 236). Frozen (decision 100).
export const closingAccounts: Migration = {
  async up(db, dialect) {
    await db.schema.alterTable('app_user').addColumn('closing_at', timestampType(dialect)).execute()
  },
}
