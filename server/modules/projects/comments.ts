import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { visibleProject } from './access.ts'
import { commentRows, subscribers } from './reads.ts'
import { conflict, notify, recordActivity, recordEffects } from './transition.ts'
import { badRequest, nowIso, spoken } from './shared.ts'
import { nobody, type ProjectViews } from './views.ts'

// Questions and answers on an open project: anyone signed in asks, the client and the followers
// hear of each new one.

type CommentDeps = {
  db: DB
  views: Pick<ProjectViews, 'people'>
}

async function comments(deps: CommentDeps, caller: Caller | null, id: number) {
  const { db, views } = deps
  const row = await visibleProject(db, caller, id)
  const rows = await commentRows(db, id)
  const users = await views.people(rows.map((r) => r.user_id))
  return {
    data: rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      body: r.body,
      author: users.get(r.user_id) ?? nobody(r.user_id),
      isClient: r.user_id === row.client_id,
      createdAt: r.created_at,
    })),
  }
}

async function addComment(deps: CommentDeps, caller: Caller, id: number, body: string, parentId?: number) {
  const { db, views } = deps
  const row = await visibleProject(db, caller, id)
  if (row.status !== 'open')
    throw conflict(`The project is ${spoken(row.status)}; questions are closed`, row.status)
  if (parentId) {
    const parent = await db
      .selectFrom('project_comment')
      .select('project_id')
      .where('id', '=', parentId)
      .executeTakeFirst()
    if (!parent || parent.project_id !== id) throw badRequest('parentId', 'is not a comment of this project')
  }
  const created = await db.transaction().execute(async (trx) => {
    const c = await trx
      .insertInto('project_comment')
      .values({
        project_id: id,
        user_id: caller.userId,
        parent_id: parentId ?? null,
        body,
        created_at: nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordActivity(trx, id, caller.userId, 'comment', c.id, 'comment', row.status)
    const followers = await subscribers(trx, id)
    const to = [row.client_id, ...followers].filter((u) => u !== caller.userId)
    if (to.length)
      await recordEffects(trx, [
        notify(to, 'newCommentBy', id, 'Project', { title: row.title }, caller.userId),
      ])
    return c
  })
  const users = await views.people([caller.userId])
  return {
    id: created.id,
    parentId: created.parent_id,
    body: created.body,
    author: users.get(caller.userId) ?? nobody(caller.userId),
    isClient: caller.userId === row.client_id,
    createdAt: created.created_at,
  }
}

export function createComments(deps: CommentDeps) {
  return {
    comments: comments.bind(null, deps),
    addComment: addComment.bind(null, deps),
  }
}
