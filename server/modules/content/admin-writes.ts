import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import type { ContentInput, ContentKind } from './admin-contract.ts'
import {
  anyTable,
  findRow,
  invalid,
  keyOf,
  kindSpecs,
  noun,
  ordered,
  tableOf,
  toColumns,
  toItem,
  type Row,
} from './admin-items.ts'

// The admin area's writes to the public site's content. Each change is audited in its own
// transaction and marks a seeded row as the admin's, so the start's seed leaves it alone; the
// public reads (site.ts) show it at once.

type DB = Kysely<Database>
type Trx = Transaction<Database>

const newSlug = () => `admin-${randomBytes(6).toString('hex')}`

async function check(trx: Trx, kind: ContentKind, input: Record<string, unknown>, id: number | null) {
  if (kind === 'services') {
    const area = await trx
      .selectFrom('category')
      .select('id')
      .where('slug', '=', String(input.areaSlug))
      .executeTakeFirst()
    if (!area) throw invalid('areaSlug', 'must be one of the categories')
  }
  if (kind === 'logos') {
    let q = trx.selectFrom('partner_logo').select('id').where('name', '=', String(input.name))
    if (id) q = q.where('id', '!=', id)
    if (await q.executeTakeFirst()) throw invalid('name', 'is already the name of another logo')
  }
}

/** A seeded row the admin changed or deleted is theirs from now on (decision 240). */
async function own(trx: Trx, kind: ContentKind, key: string) {
  await trx
    .insertInto('content_admin_owned')
    .values({ kind, key, at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute()
}

/** A new item's own columns: a blog post starts as a draft; any other kind goes last in its list. */
async function newItemColumns(trx: Trx, kind: ContentKind) {
  const now = new Date().toISOString()
  if (kind === 'blogs') return { slug: newSlug(), published: 0, published_at: now, created_at: now }
  const last = await anyTable(trx)
    .selectFrom(tableOf(kind))
    .select((eb) => eb.fn.max('sort_order').as('last'))
    .executeTakeFirst()
  return {
    sort_order: Number(last?.last ?? -1) + 1,
    ...(kindSpecs[kind].key === 'slug' ? { slug: newSlug() } : {}),
  }
}

export function createItem<K extends ContentKind>(db: DB, caller: Caller, kind: K, input: ContentInput<K>) {
  return db.transaction().execute(async (trx) => {
    await check(trx, kind, input, null)
    const values = { ...toColumns(kind, input), ...(await newItemColumns(trx, kind)) }
    const { id } = (await anyTable(trx)
      .insertInto(tableOf(kind))
      .values(values as Row)
      .returning('id')
      .executeTakeFirstOrThrow()) as { id: number }
    await own(trx, kind, keyOf(kind, values))
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'content.create',
      objectType: tableOf(kind),
      objectId: id,
      toState: kind === 'blogs' ? 'draft' : null,
    })
    return toItem(kind, await findRow(trx, kind, id))
  })
}

export function updateItem<K extends ContentKind>(
  db: DB,
  caller: Caller,
  item: { kind: K; id: number; input: ContentInput<K> },
) {
  const { kind, id, input } = item
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, kind, id)
    await check(trx, kind, input, id)
    await own(trx, kind, keyOf(kind, row))
    await anyTable(trx).updateTable(tableOf(kind)).set(toColumns(kind, input)).where('id', '=', id).execute()
    // A renamed logo is the admin's under its new name too.
    if (kind === 'logos') await own(trx, kind, String((input as { name?: string }).name))
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'content.update',
      objectType: tableOf(kind),
      objectId: id,
    })
    return toItem(kind, await findRow(trx, kind, id))
  })
}

export function removeItem(db: DB, caller: Caller, kind: ContentKind, id: number) {
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, kind, id)
    await own(trx, kind, keyOf(kind, row))
    await anyTable(trx).deleteFrom(tableOf(kind)).where('id', '=', id).execute()
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'content.delete',
      objectType: tableOf(kind),
      objectId: id,
    })
    return { ok: true as const }
  })
}

/** Swaps an item with its neighbour; the whole list is numbered anew, so equal orders cannot stick. */
export function moveItem<K extends ContentKind>(
  db: DB,
  caller: Caller,
  item: { kind: K; id: number; direction: 'up' | 'down' },
) {
  const { kind, id, direction } = item
  if (kind === 'blogs')
    throw new ApiError(400, 'Invalid Info', 'id: blog posts are ordered by their publication date', {
      id: ['blog posts are ordered by their publication date'],
    })
  return db.transaction().execute(async (trx) => {
    const rows = (await ordered(trx, kind).execute()) as Row[]
    const at = rows.findIndex((r) => r.id === id)
    if (at < 0) throw notFound(noun[kind])
    const to = direction === 'up' ? at - 1 : at + 1
    if (to >= 0 && to < rows.length) {
      ;[rows[at], rows[to]] = [rows[to], rows[at]]
      for (const [order, r] of rows.entries()) {
        if (r.sort_order !== order)
          await anyTable(trx)
            .updateTable(tableOf(kind))
            .set({ sort_order: order })
            .where('id', '=', r.id)
            .execute()
        await own(trx, kind, keyOf(kind, r))
      }
      await recordAdminAction(trx, {
        actorId: caller.userId,
        action: `content.move-${direction}`,
        objectType: tableOf(kind),
        objectId: id,
        fromState: String(at + 1),
        toState: String(to + 1),
      })
    }
    return { data: ((await ordered(trx, kind).execute()) as Row[]).map((r) => toItem(kind, r)) }
  })
}

export function publishBlog(db: DB, caller: Caller, id: number, published: boolean) {
  return db.transaction().execute(async (trx) => {
    const row = await findRow(trx, 'blogs', id)
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
    return toItem('blogs', await findRow(trx, 'blogs', id))
  })
}
