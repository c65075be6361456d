import type { Kysely, Transaction } from 'kysely'
import { locales, type Database, type Locale } from '#server/db/schema.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import type { AdminItem, ContentKind } from './admin-contract.ts'

// How the admin area's content items map to their tables (decisions 240–242): one table per kind,
// texts in `<field>_<lng>` columns, plain values in columns of their own.

export type Table = 'blog_post' | 'faq_entry' | 'home_box' | 'service_highlight' | 'partner_logo'
export type Row = Record<string, unknown> & { id: number; sort_order?: number }
export type Executor = Kysely<Database> | Transaction<Database>

interface KindSpec {
  table: Table
  /** The column the seed matches rows by. */
  key: 'slug' | 'name'
  texts: string[]
  /** Columns of plain values: input field → column. */
  plain: Record<string, string>
}

export const kindSpecs: Record<ContentKind, KindSpec> = {
  blogs: {
    table: 'blog_post',
    key: 'slug',
    texts: ['title', 'summary', 'body'],
    plain: { author: 'author', tags: 'tags', imageUrl: 'image_url' },
  },
  faq: { table: 'faq_entry', key: 'slug', texts: ['question', 'answer'], plain: { audience: 'audience' } },
  boxes: { table: 'home_box', key: 'slug', texts: ['title', 'body'], plain: { icon: 'icon' } },
  services: {
    table: 'service_highlight',
    key: 'slug',
    texts: ['title', 'body'],
    plain: { areaSlug: 'area_slug' },
  },
  logos: {
    table: 'partner_logo',
    key: 'name',
    texts: [],
    plain: { name: 'name', imageUrl: 'image_url', linkUrl: 'link_url' },
  },
}

export const noun: Record<ContentKind, string> = {
  blogs: 'Blog post',
  faq: 'FAQ entry',
  boxes: 'Home box',
  services: 'Service',
  logos: 'Partner logo',
}

export const tableOf = (kind: ContentKind) => kindSpecs[kind].table
/** The value a seeded row is matched by (its slug, a logo's name). */
export const keyOf = (kind: ContentKind, row: Record<string, unknown>) => String(row[kindSpecs[kind].key])

/** Kysely cannot type a table chosen at run time; the specs above name real columns. */
export const anyTable = (executor: Executor) => executor as unknown as Kysely<Record<Table, Row>>

export const invalid = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

export function toItem<K extends ContentKind>(kind: K, row: Row): AdminItem<K> {
  const spec = kindSpecs[kind]
  const item: Record<string, unknown> = {
    id: row.id,
    slug: keyOf(kind, row),
    sortOrder: Number(row.sort_order ?? 0),
  }
  for (const f of spec.texts)
    item[f] = Object.fromEntries(locales.map((l) => [l, String(row[`${f}_${l}`] ?? '')]))
  for (const [field, column] of Object.entries(spec.plain))
    item[field] = row[column] == null ? '' : String(row[column])
  if (kind === 'blogs')
    Object.assign(item, {
      published: Number(row.published) === 1,
      publishedAt: new Date(String(row.published_at)).toISOString(),
    })
  return item as AdminItem<K>
}

export function toColumns(kind: ContentKind, input: Record<string, unknown>) {
  const spec = kindSpecs[kind]
  const values: Record<string, unknown> = {}
  for (const f of spec.texts)
    for (const l of locales) values[`${f}_${l}`] = (input[f] as Record<Locale, string>)[l]
  for (const [field, column] of Object.entries(spec.plain))
    values[column] = input[field] === '' && column !== 'tags' ? null : input[field]
  if (kind === 'blogs') {
    values.tags = String(input.tags ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
      .join(',')
    // A summary left empty is the body's first paragraph, cut at a word (decision 241).
    for (const l of locales)
      if (!values[`summary_${l}`]) values[`summary_${l}`] = summarize(String(values[`body_${l}`]))
  }
  return values
}

/** A kind's rows in the order the site shows them (blog posts: drafts first, then newest). */
export function ordered(executor: Executor, kind: ContentKind) {
  const q = anyTable(executor).selectFrom(tableOf(kind)).selectAll()
  return kind === 'blogs'
    ? q.orderBy('published', 'asc').orderBy('published_at', 'desc').orderBy('id', 'desc')
    : q.orderBy('sort_order').orderBy('id')
}

export async function findRow(executor: Executor, kind: ContentKind, id: number) {
  const row = (await anyTable(executor)
    .selectFrom(tableOf(kind))
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()) as Row | undefined
  if (!row) throw notFound(noun[kind])
  return row
}

/** The first paragraph, at most 200 characters, cut at a word. */
export function summarize(body: string) {
  const first =
    body
      .trim()
      .split(/\n\s*\n/)[0]
      ?.replace(/\s+/g, ' ') ?? ''
  if (first.length <= 200) return first
  // The last space within the first 200 characters ends the last whole word (a word of 100 or more is cut).
  const at = first.slice(0, 200).lastIndexOf(' ')
  return `${first.slice(0, at >= 100 ? at : 199).trimEnd()}…`
}
