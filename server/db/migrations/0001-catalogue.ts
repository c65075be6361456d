import type { Migration } from './helpers.ts'
import { withId, withLocalized } from './helpers.ts'

// The catalogue of docs/product.md §1 (areas, subcategories, skills) and the reference lists behind the
// settings dropdowns. Country and language names come from Intl at read time, so only codes live here.
export const catalogue: Migration = {
  async up(db, dialect) {
    await withLocalized(
      withLocalized(withId(db.schema.createTable('category'), dialect), 'name'),
      'description',
    )
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('image_url', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await withLocalized(withId(db.schema.createTable('subcategory'), dialect), 'name')
      .addColumn('category_id', 'integer', (c) => c.notNull().references('category.id').onDelete('cascade'))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.createIndex('subcategory_category_idx').on('subcategory').column('category_id').execute()
    await withLocalized(withId(db.schema.createTable('skill'), dialect), 'name')
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .execute()
    await db.schema
      .createTable('subcategory_skill')
      .addColumn('subcategory_id', 'integer', (c) =>
        c.notNull().references('subcategory.id').onDelete('cascade'),
      )
      .addColumn('skill_id', 'integer', (c) => c.notNull().references('skill.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('subcategory_skill_pk', ['subcategory_id', 'skill_id'])
      .execute()
    await db.schema
      .createIndex('subcategory_skill_skill_idx')
      .on('subcategory_skill')
      .column('skill_id')
      .execute()
    await withLocalized(withId(db.schema.createTable('industry'), dialect), 'name')
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .execute()
    await db.schema
      .createTable('country')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .execute()
    await db.schema
      .createTable('language')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .execute()
  },
}
