import type { DB } from '../../db/database.ts'
import { readOnce } from '../../db/read-scope.ts'

// The rows most calls about one project start from, each read once per page (decision 281) whichever
// module asks: the project, its contract and its files (the project's own, its proposals' and its
// installments'). Without a page's scope (a write, an HTTP caller) each is read afresh.

export const readProject = (db: DB, id: number) => readOnce(`project:${id}`, () => db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst())

export const readContractOfProject = (db: DB, projectId: number) => readOnce(`contract-of-project:${projectId}`, () => db.selectFrom('contract').selectAll().where('project_id', '=', projectId).executeTakeFirst())

/** Files of projects with what each belongs to (a proposal, an installment, or the project itself) and what the API shows of it; filter it. */
export const projectFileRows = (executor: DB) =>
  executor
    .selectFrom('project_file as f')
    .innerJoin('stored_file as s', 's.id', 'f.file_id')
    .select(['f.file_id', 'f.proposal_id', 'f.installment_id', 'f.uploaded_by', 'f.created_at', 's.original_name', 's.attachment_type', 's.size', 's.mime'])

/** Every file of a project, oldest first. */
export const readProjectFiles = (db: DB, projectId: number) => readOnce(`project-files:${projectId}`, () => projectFileRows(db).where('f.project_id', '=', projectId).orderBy('f.id').execute())
export type ProjectFileRow = Awaited<ReturnType<typeof readProjectFiles>>[number]
