import { timestampType, withId, type Migration } from './helpers.ts'

// Two-factor sign-in (issue 19 item 6, decision 260). user_second_factor holds one authenticator
// secret per account, sealed (AES-256-GCM) so the column alone gives nothing away; `enabled_at`
// stays null until the owner confirms a code, and `last_step` is the newest 30-second step accepted
// (a code is accepted once). Recovery codes are stored as SHA-256, each used once.
// user_session.second_factor = 'setup' marks a SuperAdmin's session that may only set it up.
export const secondFactor: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await db.schema
      .createTable('user_second_factor')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('app_user.id'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled_at', ts)
      .addColumn('last_step', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await withId(db.schema.createTable('user_recovery_code'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute()
    await db.schema
      .createIndex('user_recovery_code_user_idx')
      .on('user_recovery_code')
      .columns(['user_id', 'code_hash'])
      .execute()
    await db.schema.alterTable('user_session').addColumn('second_factor', 'text').execute()
  },
}
