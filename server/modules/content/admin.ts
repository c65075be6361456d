import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { locales, type Database, type Locale } from '../../db/schema.ts'
import { ApiError, notFound } from '../../api/errors.ts'
import type { Caller } from '../../api/handler.ts'
import type { FileService } from '../files/service.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { AdminItem, ContentInput, ContentKind } from './admin-contract.ts'

// The admin area's writes to the public site's content (decisions 240–242). One table per kind;
// texts in `<field>_<lng>` columns. Each change is audited in its own transaction, marks a seeded
// row as the admin's (so the start's seed leaves it alone) and then clears the content cache, so
// the public pages show it at once (the page cache forgets at any write by itself).
type Table = 'blog_post' | 'faq_entry' | 'home_box' | 'service_highlight' | 'partner_logo'
type Row = Record<string, unknown> & { id: number; sort_order?: number }
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

/** The purpose of uploaded content images: readable by anyone, like the pages that show them. */
export const CONTENT_IMAGE = 'content-image'
const imagePath = (id: number) => `/api/v1/files/${id}/download`

export function createContentAdmin({
  db,
  files,
  changed,
}: {
  db: Kysely<Database>
  files: FileService
  changed: () => Promise<void>
}) {
  files.setReadPolicy(CONTENT_IMAGE, () => true)
  // An uploaded image stays while a blog post or a logo shows it; the sweep may release the rest.
  files.setReferences(CONTENT_IMAGE, async (executor, ids) => {
    const urls = ids.map(imagePath)
    const used = [
      ...(await executor
        .selectFrom('blog_post')
        .select('image_url as url')
        .where('image_url', 'in', urls)
        .execute()),
      ...(await executor
        .selectFrom('partner_logo')
        .select('image_url as url')
        .where('image_url', 'in', urls)
        .execute()),
    ]
    const kept = new Set(used.map((r) => r.url))
    return ids.filter((id) => kept.has(imagePath(id)))
  })

  const table = (kind: ContentKind) => kindSpecs[kind].table
  // Kysely cannot type a table chosen at run time; the specs above name real columns.
  const any = (executor: Kysely<Database> | Transaction<Database>) =>
    executor as unknown as Kysely<Record<Table, Row>>

  function toItem<K extends ContentKind>(kind: K, row: Row): AdminItem<K> {
    const spec = kindSpecs[kind]
    const item: Record<string, unknown> = {
      id: row.id,
      slug: String(row[spec.key]),
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

  function toColumns(kind: ContentKind, input: Record<string, unknown>) {
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

  function ordered(executor: Kysely<Database> | Transaction<Database>, kind: ContentKind) {
    const q = any(executor).selectFrom(table(kind)).selectAll()
    return kind === 'blogs'
      ? q.orderBy('published', 'asc').orderBy('published_at', 'desc').orderBy('id', 'desc')
      : q.orderBy('sort_order').orderBy('id')
  }

  async function list<K extends ContentKind>(kind: K) {
    const rows = (await ordered(db, kind).execute()) as Row[]
    return { data: rows.map((r) => toItem(kind, r)) }
  }

  async function find(executor: Kysely<Database> | Transaction<Database>, kind: ContentKind, id: number) {
    const row = (await any(executor)
      .selectFrom(table(kind))
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()) as Row | undefined
    if (!row) throw notFound(noun[kind])
    return row
  }

  async function get<K extends ContentKind>(kind: K, id: number) {
    return toItem(kind, await find(db, kind, id))
  }

  async function check(
    executor: Transaction<Database>,
    kind: ContentKind,
    input: Record<string, unknown>,
    id: number | null,
  ) {
    if (kind === 'services') {
      const area = await executor
        .selectFrom('category')
        .select('id')
        .where('slug', '=', String(input.areaSlug))
        .executeTakeFirst()
      if (!area) throw invalid('areaSlug', 'must be one of the categories')
    }
    if (kind === 'logos') {
      let q = executor.selectFrom('partner_logo').select('id').where('name', '=', String(input.name))
      if (id) q = q.where('id', '!=', id)
      if (await q.executeTakeFirst()) throw invalid('name', 'is already the name of another logo')
    }
  }

  /** A seeded row the admin changed or deleted is theirs from now on (decision 240). */
  async function own(trx: Transaction<Database>, kind: ContentKind, key: string) {
    await trx
      .insertInto('content_admin_owned')
      .values({ kind, key, at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
      .execute()
  }

  async function write<T>(work: (trx: Transaction<Database>) => Promise<T>) {
    const result = await db.transaction().execute(work)
    // Answered once every instance forgot what it kept, so the next page anywhere shows the change.
    await changed()
    return result
  }

  async function create<K extends ContentKind>(caller: Caller, kind: K, input: ContentInput<K>) {
    return write(async (trx) => {
      await check(trx, kind, input, null)
      const now = new Date().toISOString()
      const values: Record<string, unknown> = toColumns(kind, input)
      if (kind === 'blogs')
        Object.assign(values, { slug: newSlug(), published: 0, published_at: now, created_at: now })
      else {
        const last = await any(trx)
          .selectFrom(table(kind))
          .select((eb) => eb.fn.max('sort_order').as('last'))
          .executeTakeFirst()
        values.sort_order = Number(last?.last ?? -1) + 1
        if (kindSpecs[kind].key === 'slug') values.slug = newSlug()
      }
      const { id } = (await any(trx)
        .insertInto(table(kind))
        .values(values as Row)
        .returning('id')
        .executeTakeFirstOrThrow()) as { id: number }
      await own(trx, kind, String(values[kindSpecs[kind].key]))
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'content.create',
        objectType: table(kind),
        objectId: id,
        toState: kind === 'blogs' ? 'draft' : null,
      })
      return toItem(kind, await find(trx, kind, id))
    })
  }

  async function update<K extends ContentKind>(caller: Caller, kind: K, id: number, input: ContentInput<K>) {
    return write(async (trx) => {
      const row = await find(trx, kind, id)
      await check(trx, kind, input, id)
      await own(trx, kind, String(row[kindSpecs[kind].key]))
      await any(trx).updateTable(table(kind)).set(toColumns(kind, input)).where('id', '=', id).execute()
      // A renamed logo is the admin's under its new name too.
      if (kind === 'logos') await own(trx, kind, String((input as { name?: string }).name))
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'content.update',
        objectType: table(kind),
        objectId: id,
      })
      return toItem(kind, await find(trx, kind, id))
    })
  }

  async function remove(caller: Caller, kind: ContentKind, id: number) {
    return write(async (trx) => {
      const row = await find(trx, kind, id)
      await own(trx, kind, String(row[kindSpecs[kind].key]))
      await any(trx).deleteFrom(table(kind)).where('id', '=', id).execute()
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: 'content.delete',
        objectType: table(kind),
        objectId: id,
      })
      return { ok: true as const }
    })
  }

  /** Swaps an item with its neighbour; the whole list is numbered anew, so equal orders cannot stick. */
  async function move<K extends ContentKind>(caller: Caller, kind: K, id: number, direction: 'up' | 'down') {
    if (kind === 'blogs')
      throw new ApiError(400, 'Invalid Info', 'id: blog posts are ordered by their publication date', {
        id: ['blog posts are ordered by their publication date'],
      })
    return write(async (trx) => {
      const rows = (await ordered(trx, kind).execute()) as Row[]
      const at = rows.findIndex((r) => r.id === id)
      if (at < 0) throw notFound(noun[kind])
      const to = direction === 'up' ? at - 1 : at + 1
      if (to >= 0 && to < rows.length) {
        ;[rows[at], rows[to]] = [rows[to], rows[at]]
        for (const [order, r] of rows.entries()) {
          if (r.sort_order !== order)
            await any(trx)
              .updateTable(table(kind))
              .set({ sort_order: order })
              .where('id', '=', r.id)
              .execute()
          await own(trx, kind, String(r[kindSpecs[kind].key]))
        }
        await recordAdminAction(trx, {
          actorId: caller.userId,
          action: `content.move-${direction}`,
          objectType: table(kind),
          objectId: id,
          fromState: String(at + 1),
          toState: String(to + 1),
        })
      }
      return { data: ((await ordered(trx, kind).execute()) as Row[]).map((r) => toItem(kind, r)) }
    })
  }

  async function publish(caller: Caller, id: number, published: boolean) {
    return write(async (trx) => {
      const row = await find(trx, 'blogs', id)
      const was = Number(row.published) === 1
      if (was !== published) {
        await trx
          .updateTable('blog_post')
          .set(published ? { published: 1, published_at: new Date().toISOString() } : { published: 0 })
          .where('id', '=', id)
          .execute()
        await recordAdminAction(trx, {
          actorId: caller.userId,
          action: published ? 'content.publish' : 'content.unpublish',
          objectType: 'blog_post',
          objectId: id,
          fromState: was ? 'published' : 'draft',
          toState: published ? 'published' : 'draft',
        })
      }
      return toItem('blogs', await find(trx, 'blogs', id))
    })
  }

  async function uploadImage(caller: Caller, request: Request) {
    const stored = await files.receive(request, {
      kind: 'image',
      purpose: CONTENT_IMAGE,
      ownerId: caller.userId,
    })
    await recordAdminAction(db, {
      actorId: caller.userId,
      action: 'content.image-upload',
      objectType: 'stored_file',
      objectId: stored.id,
    })
    return { id: stored.id, url: imagePath(stored.id) }
  }

  return { list, get, create, update, remove, move, publish, uploadImage }
}

export type ContentAdmin = ReturnType<typeof createContentAdmin>

const noun: Record<ContentKind, string> = {
  blogs: 'Blog post',
  faq: 'FAQ entry',
  boxes: 'Home box',
  services: 'Service',
  logos: 'Partner logo',
}
const newSlug = () => `admin-${randomBytes(6).toString('hex')}`
const invalid = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

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
