import type { Migration } from './helpers.ts'
import { timestampType, withId, withLocalized } from './helpers.ts'

// Content of the public site (issue 4): FAQ, blog, home boxes, services, partner logos and the
// static pages (about us, why Workneer, terms), all in the five languages; the newsletter's
// subscribers and the messages sent through the contact form to the support inbox.
export const content: Migration = {
  async up(db, dialect) {
    const ts = timestampType(dialect)
    await withLocalized(
      withLocalized(withId(db.schema.createTable('faq_entry'), dialect), 'question'),
      'answer',
    )
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('audience', 'text', (c) => c.notNull().defaultTo('all'))
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()

    await withLocalized(
      withLocalized(withLocalized(withId(db.schema.createTable('blog_post'), dialect), 'title'), 'summary'),
      'body',
    )
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('image_url', 'text')
      .addColumn('published', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('published_at', ts, (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('blog_post_published_idx')
      .on('blog_post')
      .columns(['published', 'published_at'])
      .execute()

    await withLocalized(withLocalized(withId(db.schema.createTable('home_box'), dialect), 'title'), 'body')
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('icon', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()

    await withLocalized(
      withLocalized(withId(db.schema.createTable('service_highlight'), dialect), 'title'),
      'body',
    )
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('area_slug', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()

    await withId(db.schema.createTable('partner_logo'), dialect)
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('image_url', 'text', (c) => c.notNull())
      .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()

    await withLocalized(withLocalized(db.schema.createTable('content_page'), 'title'), 'body')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute()

    await withId(db.schema.createTable('newsletter_subscriber'), dialect)
      .addColumn('email', 'text', (c) => c.notNull().unique()) // lower-cased
      .addColumn('token', 'text', (c) => c.notNull().unique()) // the unsubscribe link's secret
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('subscribed_at', ts, (c) => c.notNull())
      .addColumn('unsubscribed_at', ts)
      .execute()

    await withId(db.schema.createTable('contact_message'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('user_id', 'integer')
      .addColumn('ip', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .execute()
    await db.schema
      .createIndex('contact_message_created_idx')
      .on('contact_message')
      .column('created_at')
      .execute()
  },
}
