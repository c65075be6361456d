import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import type { ProjectInput } from './contract.ts'
import type { ProjectState } from './machines.ts'
import { ownProject } from './access.ts'
import { offerOfProject, readProject } from './reads.ts'
import { indexProject } from './search.ts'
import type { ProjectSearchIndex } from './search-index.ts'
import { conflict, lockRow, recordActivity, recordCreated, type Trx } from './transition.ts'
import { publishOrSubmit } from './review/publish.ts'
import { problem } from './schemas/fields.ts'
import { badRequest, isClient, newestPage, nowIso, pageOf, spoken, type PageQuery } from './shared.ts'
import type { ProjectViews } from './views.ts'

// A client's projects: posting one (as a draft or published at once), editing it while nobody has
// proposed, deleting it before it has a contract, and the list of their own.

/** The subcategory and skills of the input exist; answers the subcategory's category and the skills once each. */
export async function checkCatalogue(db: DB, input: Pick<ProjectInput, 'subcategoryId' | 'skillIds'>) {
  const sub = await db
    .selectFrom('subcategory')
    .select(['id', 'category_id'])
    .where('id', '=', input.subcategoryId)
    .executeTakeFirst()
  if (!sub) throw badRequest('subcategoryId', 'is not a known subcategory')
  const skillIds = [...new Set(input.skillIds)]
  if (skillIds.length) {
    const found = await db.selectFrom('skill').select('id').where('id', 'in', skillIds).execute()
    if (found.length !== skillIds.length) throw badRequest('skillIds', 'contains an unknown skill')
  }
  return { categoryId: sub.category_id, skillIds }
}

/**
 * The columns of a project. What does not belong to the chosen budget type is dropped (decision
 * 323): the form shows both groups with JavaScript off, and the server decides by the type.
 */
export function projectValues(input: ProjectInput, categoryId: number) {
  const hourly = input.budgetType === 'hourly'
  return {
    title: input.title,
    description: input.description,
    category_id: categoryId,
    subcategory_id: input.subcategoryId,
    budget_type: input.budgetType,
    budget_minor: input.budgetMinor,
    budget_min_minor: hourly ? (input.budgetMinMinor ?? null) : null,
    hours_per_week: hourly ? (input.hoursPerWeek ?? null) : null,
    currency: input.currency,
    duration_days: input.durationDays ?? null,
    deadline: input.deadline ?? null,
    experience_level: input.experienceLevel ?? null,
    remote: input.remote ? 1 : 0,
    location: input.location || null,
    country: input.country ?? null,
    installment_plan: JSON.stringify(hourly ? [] : input.installments),
    visibility: input.visibility,
  }
}

async function setSkills(trx: Trx, projectId: number, skillIds: number[]) {
  await trx.deleteFrom('project_skill').where('project_id', '=', projectId).execute()
  if (skillIds.length)
    await trx
      .insertInto('project_skill')
      .values(skillIds.map((skill_id) => ({ project_id: projectId, skill_id })))
      .execute()
}

/** Publishes a draft (or a returned project) the client just saved: the guard reads the saved values. */
function publishSaved(
  trx: Trx,
  caller: Caller,
  id: number,
  current: ProjectState,
  values: ReturnType<typeof projectValues>,
) {
  return publishOrSubmit(trx, caller, current, { ...values, id, client_id: caller.userId })
}

/** A direct offer's terms are what the freelancer was offered: a new offer changes them, not an edit. */
export const offerProject = () =>
  new ApiError(409, 'Conflict', "The project is a direct offer's; withdraw the offer and make a new one", {
    project: [problem('offerProject')],
  })

type ProjectDeps = {
  db: DB
  dialect: Dialect
  files: Pick<FileService, 'release'>
  index: ProjectSearchIndex
  views: Pick<ProjectViews, 'summaries' | 'details'>
}

async function create(deps: ProjectDeps, caller: Caller, input: ProjectInput, locale: Locale) {
  const { db, index, views } = deps
  if (!isClient(caller)) throw new ApiError(403, 'Forbidden', 'Only clients and companies post projects')
  const { categoryId, skillIds } = await checkCatalogue(db, input)
  const id = await db.transaction().execute(async (trx) => {
    const now = nowIso()
    const values = projectValues(input, categoryId)
    const row = await trx
      .insertInto('project')
      .values({
        ...values,
        client_id: caller.userId,
        status: 'draft',
        created_at: now,
        updated_at: now,
        published_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await setSkills(trx, row.id, skillIds)
    await recordCreated(trx, 'project', row.id, 'draft', row.id, caller.userId)
    if (input.publish) {
      const status = await publishSaved(trx, caller, row.id, 'draft', values)
      await indexProject(index, trx, { ...values, id: row.id, status })
    }
    return row.id
  })
  return views.details((await readProject(db, id))!, caller, locale)
}

async function update(deps: ProjectDeps, caller: Caller, id: number, input: ProjectInput, locale: Locale) {
  const { db, dialect, index, views } = deps
  const { categoryId, skillIds } = await checkCatalogue(db, input)
  await ownProject(db, caller, id)
  if (await offerOfProject(db, id)) throw offerProject()
  await db.transaction().execute(async (trx) => {
    const row = (await lockRow(trx, dialect, 'project', id))!
    // A returned project is edited as a draft is (decision 339); one in review waits for the admin.
    if (!['draft', 'returned', 'open'].includes(row.status))
      throw conflict(`The project is ${spoken(row.status)}; it can no longer be edited`, row.status)
    if (row.status === 'open' && row.proposal_count > 0)
      throw conflict('The project has proposals; it can no longer be edited', row.status)
    const values = projectValues(input, categoryId)
    await trx
      .updateTable('project')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', id)
      .execute()
    await setSkills(trx, id, skillIds)
    await recordActivity(trx, id, caller.userId, 'project', id, 'edit', row.status)
    if ((row.status === 'draft' || row.status === 'returned') && input.publish)
      await publishSaved(trx, caller, id, row.status, values)
    const fresh = await trx
      .selectFrom('project')
      .select(['id', 'title', 'description', 'status', 'visibility'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    await indexProject(index, trx, fresh)
  })
  return views.details((await readProject(db, id))!, caller, locale)
}

async function remove(deps: ProjectDeps, caller: Caller, id: number) {
  const { db, dialect, files, index } = deps
  await ownProject(db, caller, id)
  await db.transaction().execute(async (trx) => {
    const row = (await lockRow(trx, dialect, 'project', id))!
    if (await trx.selectFrom('contract').select('id').where('project_id', '=', id).executeTakeFirst()) {
      throw conflict('The project has a contract; cancel it instead of deleting it', row.status)
    }
    const linked = (
      await trx.selectFrom('project_file').select('file_id').where('project_id', '=', id).execute()
    ).map((f) => f.file_id)
    await index.remove(trx, id)
    await trx.deleteFrom('project').where('id', '=', id).execute()
    await files.release(trx, linked) // the rows now, the bytes after commit
  })
  return { ok: true as const }
}

async function myProjects(
  deps: ProjectDeps,
  caller: Caller,
  query: PageQuery & { status?: ProjectState; invitable?: boolean },
  locale: Locale,
) {
  const { db, views } = deps
  let q = db.selectFrom('project').where('client_id', '=', caller.userId)
  if (query.status) q = q.where('status', '=', query.status)
  // A direct offer's project is for its one freelancer (decision 342).
  if (query.invitable)
    q = q.where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('direct_offer as o').select('o.id').whereRef('o.project_id', '=', 'project.id'),
        ),
      ),
    )
  const { rows, total } = await newestPage(q, query)
  return pageOf(await views.summaries(rows, locale), query, total)
}

export function createProjects(deps: ProjectDeps) {
  return {
    create: create.bind(null, deps),
    update: update.bind(null, deps),
    remove: remove.bind(null, deps),
    myProjects: myProjects.bind(null, deps),
  }
}
