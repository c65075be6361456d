import type { DB } from '../../db/database.ts'
import { readOnce } from '../../db/read-scope.ts'
import { prepared } from '../../db/prepared.ts'

// The rows most calls about one project start from, each read once per page (decision 281) whichever
// module asks: the project, its contract and its files (the project's own, its proposals' and its
// installments'). Without a page's scope (a write, an HTTP caller) each is read afresh.

// Built once (decision 286): every project page makes these.
const projectById = prepared((db, id: number) => db.selectFrom('project').selectAll().where('id', '=', id))
const contractByProject = prepared((db, projectId: number) =>
  db.selectFrom('contract').selectAll().where('project_id', '=', projectId),
)
const filesOfProject = prepared((db, projectId: number) =>
  projectFileRows(db).where('f.project_id', '=', projectId).orderBy('f.id'),
)

export const readProject = (db: DB, id: number) =>
  readOnce(`project:${id}`, async () => (await projectById(db, id))[0])

export const readContractOfProject = (db: DB, projectId: number) =>
  readOnce(`contract-of-project:${projectId}`, async () => (await contractByProject(db, projectId))[0])

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
  readOnce(`project-files:${projectId}`, () => filesOfProject(db, projectId))
export type ProjectFileRow = Awaited<ReturnType<typeof readProjectFiles>>[number]
