import { prepared } from '../../db/prepared.ts'
import { projectFileRows } from './reads.ts'

// The statements the project pages make on every request, built and compiled once per shape
// (decision 286); each is the query it was inline, with its values as arguments.

/** The people a page shows: its client, proposers, actors, authors. */
export const usersByIds = prepared((db, ids: number[]) =>
  db
    .selectFrom('app_user')
    .select(['id', 'first_name', 'last_name', 'company_name', 'status', 'image_file_id'])
    .where('id', 'in', ids),
)

/** Whether the reader saved the project and follows it, in one statement. */
export const marksOf = prepared((db, userId: number, projectId: number) =>
  db.selectNoFrom((eb) => [
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
  ]),
)

/** The title and rating of proposers. */
export const proposerProfiles = prepared((db, userIds: number[]) =>
  db
    .selectFrom('freelancer_profile')
    .select(['user_id', 'title', 'rating_x100', 'rating_count'])
    .where('user_id', 'in', userIds),
)

/** A page of a project's history, newest first. */
export const activityRows = prepared((db, projectId: number, offset: number, limit: number) =>
  db
    .selectFrom('project_activity')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit),
)

/** The proposals a client's project received (withdrawn ones are the freelancers' own), newest first. */
export const receivedProposals = prepared((db, projectId: number) =>
  db
    .selectFrom('proposal')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', '!=', 'withdrawn')
    .orderBy('created_at', 'desc')
    .limit(200),
)

/** A project's questions and answers, oldest first. */
export const commentRows = prepared((db, projectId: number) =>
  db.selectFrom('project_comment').selectAll().where('project_id', '=', projectId).orderBy('id').limit(500),
)

/** The titles and states of the projects a list of proposals or contracts is about. */
export const projectTitleRows = prepared((db, projectIds: number[]) =>
  db.selectFrom('project').select(['id', 'title', 'status']).where('id', 'in', projectIds),
)

/** The installments of contracts, in their order. */
export const installmentRows = prepared((db, contractIds: number[]) =>
  db
    .selectFrom('installment')
    .selectAll()
    .where('contract_id', 'in', contractIds)
    .orderBy('contract_id')
    .orderBy('position'),
)

/** The files of proposals, and of contracts' installments (lists over several projects). */
export const filesOfProposals = prepared((db, proposalIds: number[]) =>
  projectFileRows(db).where('f.proposal_id', 'in', proposalIds),
)
export const filesOfInstallments = prepared((db, contractIds: number[]) =>
  projectFileRows(db)
    .innerJoin('installment as i', 'i.id', 'f.installment_id')
    .where('i.contract_id', 'in', contractIds),
)

/** The skills of the projects shown, by id (their names come from the catalogue). */
export const skillIdsOfProjects = prepared((db, projectIds: number[]) =>
  db.selectFrom('project_skill').select(['project_id', 'skill_id']).where('project_id', 'in', projectIds),
)
