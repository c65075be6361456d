import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { timestampType, withId } from './helpers.ts'

// Profiles (issue 5): the freelancer profile and its list sections, individual-client and company
// profiles, freelancer payment methods, and the full-text index behind Find Freelancers (an FTS5
// table on SQLite, a tsvector with a GIN index on PostgreSQL; server/modules/profiles/search-index.ts).
export const profiles: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    const user = (c: any) => c.notNull().references('app_user.id').onDelete('cascade')

    await db.schema
      .createTable('freelancer_profile')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('app_user.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('experience_level', 'text')
      .addColumn('years_of_experience', 'integer')
      .addColumn('country', 'text')
      .addColumn('city', 'text')
      .addColumn('availability', 'text')
      .addColumn('hourly_rate_minor', 'integer')
      .addColumn('currency', 'text')
      .addColumn('gender', 'text')
      .addColumn('category_id', 'integer', (c) => c.references('category.id').onDelete('set null'))
      // Reviews (the projects issue) keep these two up to date; hundredths of a star.
      .addColumn('rating_x100', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    for (const column of [
      'country',
      'experience_level',
      'availability',
      'hourly_rate_minor',
      'category_id',
      'rating_x100',
      'updated_at',
    ]) {
      await db.schema
        .createIndex(`freelancer_profile_${column}_idx`)
        .on('freelancer_profile')
        .columns(['listed', column])
        .execute()
    }

    await db.schema
      .createTable('freelancer_language')
      .addColumn('user_id', 'integer', user)
      .addColumn('language_code', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('freelancer_language_pk', ['user_id', 'language_code'])
      .execute()
    await db.schema
      .createIndex('freelancer_language_code_idx')
      .on('freelancer_language')
      .columns(['language_code', 'user_id'])
      .execute()

    await db.schema
      .createTable('freelancer_subcategory')
      .addColumn('user_id', 'integer', user)
      .addColumn('subcategory_id', 'integer', (c) =>
        c.notNull().references('subcategory.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('freelancer_subcategory_pk', ['user_id', 'subcategory_id'])
      .execute()
    await db.schema
      .createIndex('freelancer_subcategory_sub_idx')
      .on('freelancer_subcategory')
      .columns(['subcategory_id', 'user_id'])
      .execute()

    await db.schema
      .createTable('freelancer_skill')
      .addColumn('user_id', 'integer', user)
      .addColumn('skill_id', 'integer', (c) => c.notNull().references('skill.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('freelancer_skill_pk', ['user_id', 'skill_id'])
      .execute()
    await db.schema
      .createIndex('freelancer_skill_skill_idx')
      .on('freelancer_skill')
      .columns(['skill_id', 'user_id'])
      .execute()

    await withId(db.schema.createTable('freelancer_education'), dialect)
      .addColumn('user_id', 'integer', user)
      .addColumn('school', 'text', (c) => c.notNull())
      .addColumn('degree', 'text', (c) => c.notNull())
      .addColumn('field_of_study', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('start_year', 'integer')
      .addColumn('end_year', 'integer')
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('freelancer_education_user_idx')
      .on('freelancer_education')
      .column('user_id')
      .execute()

    await withId(db.schema.createTable('freelancer_employment'), dialect)
      .addColumn('user_id', 'integer', user)
      .addColumn('company', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('start_month', 'text', (c) => c.notNull()) // YYYY-MM
      .addColumn('end_month', 'text') // YYYY-MM; null while current
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('freelancer_employment_user_idx')
      .on('freelancer_employment')
      .column('user_id')
      .execute()

    await withId(db.schema.createTable('freelancer_certification'), dialect)
      .addColumn('user_id', 'integer', user)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('issued_month', 'text') // YYYY-MM
      .addColumn('credential_url', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('freelancer_certification_user_idx')
      .on('freelancer_certification')
      .column('user_id')
      .execute()

    await withId(db.schema.createTable('freelancer_portfolio'), dialect)
      .addColumn('user_id', 'integer', user)
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('project_url', 'text')
      .addColumn('completed_month', 'text')
      .addColumn('image_file_id', 'integer', (c) => c.references('stored_file.id').onDelete('set null'))
      .addColumn('document_file_id', 'integer', (c) => c.references('stored_file.id').onDelete('set null'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('freelancer_portfolio_user_idx')
      .on('freelancer_portfolio')
      .column('user_id')
      .execute()

    // Individual clients and companies share one table; `kind` says which sections apply.
    await db.schema
      .createTable('client_profile')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('app_user.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull()) // individual | company
      .addColumn('country', 'text')
      .addColumn('city', 'text')
      .addColumn('industry_id', 'integer', (c) => c.references('industry.id').onDelete('set null'))
      .addColumn('website', 'text')
      .addColumn('company_size', 'text')
      .addColumn('founded_year', 'integer')
      .addColumn('who', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('what', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('category_id', 'integer', (c) => c.references('category.id').onDelete('set null'))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createTable('client_subcategory')
      .addColumn('user_id', 'integer', user)
      .addColumn('subcategory_id', 'integer', (c) =>
        c.notNull().references('subcategory.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint('client_subcategory_pk', ['user_id', 'subcategory_id'])
      .execute()

    await withId(db.schema.createTable('payment_method'), dialect)
      .addColumn('user_id', 'integer', user)
      .addColumn('kind', 'text', (c) => c.notNull()) // bank | paypal
      .addColumn('holder_name', 'text', (c) => c.notNull())
      .addColumn('iban', 'text')
      .addColumn('bic', 'text')
      .addColumn('bank_name', 'text')
      .addColumn('email', 'text')
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active')) // active | inactive
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()
    await db.schema.createIndex('payment_method_user_idx').on('payment_method').column('user_id').execute()

    if (dialect === 'sqlite') {
      // rowid = the freelancer's user id. Diacritics are folded before indexing (in JS, for both databases).
      await sql`create virtual table freelancer_search using fts5(title, overview, skills, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      )
    } else {
      await sql`create table freelancer_search (user_id integer primary key references app_user(id) on delete cascade, document tsvector not null)`.execute(
        db,
      )
      await sql`create index freelancer_search_document_idx on freelancer_search using gin (document)`.execute(
        db,
      )
    }
  },
}
