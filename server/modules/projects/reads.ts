import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'

// The queries the project pages share: a project, its contract, its files, and the rows shown with
// them (people, proposers, history, questions, installments). Each call reads the database.

export const readProject = (db: DB, id: number) =>
  db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst()

/** A direct offer's project (decision 342): its terms are the offer's, so it is not edited and invites nobody else. */
export const offerOfProject = (db: DB, projectId: number) =>
  db
    .selectFrom('direct_offer')
    .select(['id', 'status'])
    .where('project_id', '=', projectId)
    .executeTakeFirst()

export const readContractOfProject = (db: DB, projectId: number) =>
  db.selectFrom('contract').selectAll().where('project_id', '=', projectId).executeTakeFirst()

/** Files of projects with what each belongs to (a proposal, an installment, or the project itself) and what the API shows of it; filter it. */
export const projectFileRows = (executor: DB) =>
  executor
    .selectFrom('project_file as f')
    .innerJoin('stored_file as s', 's.id', 'f.file_id')
    .select([
      'f.file_id',
      'f.proposal_id',
      'f.installment_id',
      'f.uploaded_by',
      'f.created_at',
      's.original_name',
      's.attachment_type',
      's.size',
      's.mime',
    ])

/** Every file of a project, oldest first. */
export const readProjectFiles = (db: DB, projectId: number) =>
  projectFileRows(db).where('f.project_id', '=', projectId).orderBy('f.id').execute()
export type ProjectFileRow = Awaited<ReturnType<typeof readProjectFiles>>[number]

/** The files of proposals (oldest first). */
export const filesOfProposals = (db: DB, proposalIds: number[]) =>
  projectFileRows(db).where('f.proposal_id', 'in', proposalIds).orderBy('f.id').execute()

/** The files submitted with the installments of contracts (oldest first). */
export const filesOfInstallments = (db: DB, contractIds: number[]) =>
  projectFileRows(db)
    .innerJoin('installment as i', 'i.id', 'f.installment_id')
    .where('i.contract_id', 'in', contractIds)
    .orderBy('f.id')
    .execute()

/** The people a page shows: its client, proposers, actors, authors. */
export const usersByIds = (db: DB, ids: number[]) =>
  db
    .selectFrom('app_user')
    .select(['id', 'first_name', 'last_name', 'company_name', 'status', 'image_file_id'])
    .where('id', 'in', ids)
    .execute()

/** Whether the reader saved the project and follows it, in one statement. */
export const marksOf = (db: DB, userId: number, projectId: number) =>
  db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('project_wishlist')
            .select('user_id')
            .where('user_id', '=', userId)
            .where('project_id', '=', projectId),
        )
        .as('wishlisted'),
      eb
        .exists(
          eb
            .selectFrom('project_subscription')
            .select('user_id')
            .where('user_id', '=', userId)
            .where('project_id', '=', projectId),
        )
        .as('subscribed'),
    ])
    .executeTakeFirst()

/** The title and rating of proposers. */
export const proposerProfiles = (db: DB, userIds: number[]) =>
  db
    .selectFrom('freelancer_profile')
    .select(['user_id', 'title', 'rating_x100', 'rating_count'])
    .where('user_id', 'in', userIds)
    .execute()

/** A page of a project's history, newest first. */
export const activityRows = (db: DB, projectId: number, offset: number, limit: number) =>
  db
    .selectFrom('project_activity')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute()

/** The proposals a client's project received (withdrawn ones are the freelancers' own), newest first. */
export const receivedProposals = (db: DB, projectId: number) =>
  db
    .selectFrom('proposal')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', '!=', 'withdrawn')
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute()

/** A project's questions and answers, oldest first. */
export const commentRows = (db: DB, projectId: number) =>
  db
    .selectFrom('project_comment')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .limit(500)
    .execute()

/** The titles and states of the projects a list of proposals or contracts is about. */
export const projectTitleRows = (db: DB, projectIds: number[]) =>
  db.selectFrom('project').select(['id', 'title', 'status']).where('id', 'in', projectIds).execute()

/** The installments of contracts, in their order, with how many deliverables each has in the register. */
export const installmentRows = (db: DB, contractIds: number[]) =>
  db
    .selectFrom('installment')
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom('deliverable')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('deliverable.installment_id', '=', 'installment.id')
        .as('deliverables'),
    )
    .where('contract_id', 'in', contractIds)
    .orderBy('contract_id')
    .orderBy('position')
    .execute()

/** The skills of projects with their names in one language. */
export const skillsOfProjects = (db: DB, projectIds: number[], locale: Locale) =>
  db
    .selectFrom('project_skill as ps')
    .innerJoin('skill as s', 's.id', 'ps.skill_id')
    .select(['ps.project_id', 's.id', `s.name_${locale} as name`])
    .where('ps.project_id', 'in', projectIds)
    .orderBy('ps.project_id')
    .orderBy('s.id')
    .execute()

/** Category or subcategory names by id, in one language. */
export async function namesOf(db: DB, table: 'category' | 'subcategory', ids: number[], locale: Locale) {
  const unique = [...new Set(ids)]
  if (!unique.length) return new Map<number, string>()
  const rows = await db
    .selectFrom(table)
    .select(['id', `name_${locale} as name`])
    .where('id', 'in', unique)
    .execute()
  return new Map(rows.map((r) => [r.id, r.name as string]))
}

/** The users who follow a project (they hear of its questions and of its end). */
export const subscribers = async (executor: DB, projectId: number) =>
  (
    await executor
      .selectFrom('project_subscription')
      .select('user_id')
      .where('project_id', '=', projectId)
      .execute()
  ).map((r) => r.user_id)
