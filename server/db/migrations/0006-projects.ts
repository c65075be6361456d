import { sql } from 'kysely'
import type { Migration } from './helpers.ts'
import { timestampType, withId } from './helpers.ts'

// Projects, proposals and contracts (issue 6). States are text columns changed only by the state
// machines in server/modules/projects/machines.ts; every change appends a project_activity row.
// Money is integer minor units with a currency. Plans (the client's proposed installments on a
// project, the freelancer's on a proposal) are JSON text; the agreed installments of a contract are
// rows with their own state. The full-text index `project_search` is an FTS5 table on SQLite and
// a tsvector with a GIN index on PostgreSQL (server/modules/projects/search-index.ts).
export const projects: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    const user = (c: any) => c.notNull().references('app_user.id').onDelete('cascade')
    const project = (c: any) => c.notNull().references('project.id').onDelete('cascade')

    await withId(db.schema.createTable('project'), dialect)
      .addColumn('client_id', 'integer', user)
      .addColumn('status', 'text', (c) => c.notNull()) // draft | open | in_progress | completed | cancelled
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('category_id', 'integer', (c) => c.references('category.id').onDelete('set null'))
      .addColumn('subcategory_id', 'integer', (c) => c.references('subcategory.id').onDelete('set null'))
      .addColumn('budget_type', 'text', (c) => c.notNull()) // fixed | hourly
      .addColumn('budget_minor', 'integer', (c) => c.notNull()) // fixed: the total; hourly: the highest rate
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('duration_days', 'integer')
      .addColumn('deadline', 'text') // YYYY-MM-DD
      .addColumn('experience_level', 'text') // entry | intermediate | expert
      .addColumn('remote', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('location', 'text')
      .addColumn('country', 'text') // ISO 3166-1 alpha-2 of the site, when on site
      .addColumn('installment_plan', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('proposal_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addColumn('published_at', ts)
      .execute()
    await db.schema
      .createIndex('project_client_idx')
      .on('project')
      .columns(['client_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('project_status_published_idx')
      .on('project')
      .columns(['status', 'published_at'])
      .execute()
    await db.schema
      .createIndex('project_status_category_idx')
      .on('project')
      .columns(['status', 'category_id', 'published_at'])
      .execute()
    await db.schema
      .createIndex('project_status_subcategory_idx')
      .on('project')
      .columns(['status', 'subcategory_id', 'published_at'])
      .execute()
    await db.schema
      .createIndex('project_status_budget_idx')
      .on('project')
      .columns(['status', 'budget_minor'])
      .execute()

    await db.schema
      .createTable('project_skill')
      .addColumn('project_id', 'integer', project)
      .addColumn('skill_id', 'integer', (c) => c.notNull().references('skill.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('project_skill_pk', ['project_id', 'skill_id'])
      .execute()
    await db.schema
      .createIndex('project_skill_skill_idx')
      .on('project_skill')
      .columns(['skill_id', 'project_id'])
      .execute()

    await withId(db.schema.createTable('proposal'), dialect)
      .addColumn('project_id', 'integer', project)
      .addColumn('freelancer_id', 'integer', user)
      .addColumn('status', 'text', (c) => c.notNull()) // pending | accepted | rejected | withdrawn
      .addColumn('cover_letter', 'text', (c) => c.notNull())
      .addColumn('bid_minor', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('duration_days', 'integer', (c) => c.notNull())
      .addColumn('installment_plan', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('reject_reason', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addColumn('decided_at', ts)
      .addUniqueConstraint('proposal_project_freelancer_uq', ['project_id', 'freelancer_id'])
      .execute()
    await db.schema
      .createIndex('proposal_freelancer_idx')
      .on('proposal')
      .columns(['freelancer_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('proposal_project_idx')
      .on('proposal')
      .columns(['project_id', 'created_at'])
      .execute()

    // Earlier versions of a proposal, kept when the freelancer edits it while pending.
    await withId(db.schema.createTable('proposal_revision'), dialect)
      .addColumn('proposal_id', 'integer', (c) => c.notNull().references('proposal.id').onDelete('cascade'))
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('cover_letter', 'text', (c) => c.notNull())
      .addColumn('bid_minor', 'integer', (c) => c.notNull())
      .addColumn('duration_days', 'integer', (c) => c.notNull())
      .addColumn('installment_plan', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('proposal_revision_idx')
      .on('proposal_revision')
      .columns(['proposal_id', 'revision'])
      .execute()

    // One contract per project (single hire): the unique project_id is what makes two accepts
    // at the same moment end in exactly one contract on both databases.
    await withId(db.schema.createTable('contract'), dialect)
      .addColumn('project_id', 'integer', (c) =>
        c.notNull().unique().references('project.id').onDelete('cascade'),
      )
      .addColumn('proposal_id', 'integer', (c) =>
        c.notNull().unique().references('proposal.id').onDelete('cascade'),
      )
      .addColumn('client_id', 'integer', user)
      .addColumn('freelancer_id', 'integer', user)
      .addColumn('status', 'text', (c) => c.notNull()) // active | completed | cancelled
      .addColumn('amount_minor', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('room_id', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addColumn('ended_at', ts)
      .execute()
    await db.schema
      .createIndex('contract_freelancer_idx')
      .on('contract')
      .columns(['freelancer_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('contract_client_idx')
      .on('contract')
      .columns(['client_id', 'created_at'])
      .execute()

    await withId(db.schema.createTable('installment'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('amount_minor', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('due_date', 'text') // YYYY-MM-DD
      .addColumn('status', 'text', (c) => c.notNull()) // pending | funded | submitted | changes_requested | approved | released
      .addColumn('submission_note', 'text')
      .addColumn('feedback', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .addUniqueConstraint('installment_position_uq', ['contract_id', 'position'])
      .execute()

    // Files attached to a project, a proposal or an installment's submitted work.
    await withId(db.schema.createTable('project_file'), dialect)
      .addColumn('project_id', 'integer', project)
      .addColumn('file_id', 'integer', (c) =>
        c.notNull().unique().references('stored_file.id').onDelete('cascade'),
      )
      .addColumn('proposal_id', 'integer', (c) => c.references('proposal.id').onDelete('cascade'))
      .addColumn('installment_id', 'integer', (c) => c.references('installment.id').onDelete('cascade'))
      .addColumn('uploaded_by', 'integer', user)
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('project_file_project_idx')
      .on('project_file')
      .columns(['project_id', 'id'])
      .execute()

    await withId(db.schema.createTable('project_activity'), dialect)
      .addColumn('project_id', 'integer', project)
      .addColumn('actor_id', 'integer', (c) => c.references('app_user.id').onDelete('set null'))
      .addColumn('entity', 'text', (c) => c.notNull()) // project | proposal | contract | installment
      .addColumn('entity_id', 'integer', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('from_state', 'text')
      .addColumn('to_state', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('project_activity_project_idx')
      .on('project_activity')
      .columns(['project_id', 'id'])
      .execute()

    for (const name of ['project_wishlist', 'project_subscription']) {
      await db.schema
        .createTable(name)
        .addColumn('user_id', 'integer', user)
        .addColumn('project_id', 'integer', project)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${name}_pk`, ['user_id', 'project_id'])
        .execute()
      await db.schema.createIndex(`${name}_project_idx`).on(name).columns(['project_id', 'user_id']).execute()
    }

    await withId(db.schema.createTable('project_comment'), dialect)
      .addColumn('project_id', 'integer', project)
      .addColumn('user_id', 'integer', user)
      .addColumn('parent_id', 'integer', (c) => c.references('project_comment.id').onDelete('cascade'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('project_comment_project_idx')
      .on('project_comment')
      .columns(['project_id', 'id'])
      .execute()

    // Reviews after a completed contract: one per side, hidden until both have written or
    // 14 days have passed (visible_from).
    await withId(db.schema.createTable('review'), dialect)
      .addColumn('contract_id', 'integer', (c) => c.notNull().references('contract.id').onDelete('cascade'))
      .addColumn('project_id', 'integer', project)
      .addColumn('author_id', 'integer', user)
      .addColumn('subject_id', 'integer', user)
      .addColumn('rating', 'integer', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('visible_from', ts, (c) => c.notNull())
      .addUniqueConstraint('review_contract_author_uq', ['contract_id', 'author_id'])
      .execute()
    await db.schema
      .createIndex('review_subject_idx')
      .on('review')
      .columns(['subject_id', 'visible_from'])
      .execute()

    if (dialect === 'sqlite') {
      // rowid = the project id; only open projects are indexed. Diacritics are folded in JS.
      await sql`create virtual table project_search using fts5(title, description, skills, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      )
    } else {
      await sql`create table project_search (project_id integer primary key references project(id) on delete cascade, document tsvector not null)`.execute(
        db,
      )
      await sql`create index project_search_document_idx on project_search using gin (document)`.execute(db)
    }
  },
}
