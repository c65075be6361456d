import type { Migration } from './helpers.ts'
import { timestampType, withId } from './helpers.ts'

// Identity (issue 3): accounts, roles, sessions named by the login token, single-use mail tokens,
// third-party identities and their pending sign-in flows, reputation points, the shared signing
// secret, and the outbox that delivers mail (and later notifications) after commit.
export const identity: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withId(db.schema.createTable('app_user'), dialect)
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_hash', 'text')
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('company_name', 'text')
      .addColumn('phone_number', 'text')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('account_type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('image_file_id', 'integer')
      .addColumn('provider', 'text', (c) => c.notNull().defaultTo('local'))
      .addColumn('terms_accepted_at', ts)
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()

    await db.schema
      .createTable('user_role')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('role', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role'])
      .execute()

    await db.schema
      .createTable('user_session')
      .addColumn('id', 'text', (c) => c.primaryKey()) // sha-256 of the token's sid
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('revoked_at', ts)
      .execute()
    await db.schema.createIndex('user_session_user_idx').on('user_session').column('user_id').execute()

    await withId(db.schema.createTable('user_token'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('data', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .addColumn('used_at', ts)
      .execute()
    await db.schema
      .createIndex('user_token_user_idx')
      .on('user_token')
      .columns(['user_id', 'purpose'])
      .execute()

    await withId(db.schema.createTable('external_identity'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('external_identity_subject_uq', ['provider', 'subject'])
      .execute()

    await db.schema
      .createTable('oidc_flow')
      .addColumn('id', 'text', (c) => c.primaryKey()) // sha-256 of the state (or of the registration ticket)
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('claims', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('expires_at', ts, (c) => c.notNull())
      .execute()

    await withId(db.schema.createTable('wengaz_point_event'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('points', 'integer', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addUniqueConstraint('wengaz_point_event_uq', ['user_id', 'reason', 'ref'])
      .execute()

    await db.schema
      .createTable('app_secret')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()

    await withId(db.schema.createTable('outbox'), dialect)
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_after', ts, (c) => c.notNull())
      .addColumn('locked_until', ts)
      .addColumn('last_error', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('done_at', ts)
      .execute()
    await db.schema.createIndex('outbox_due_idx').on('outbox').columns(['status', 'run_after']).execute()
  },
}
