import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, forbidden, notFound } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import { limits } from './rules.ts'
import { knownToOthers, maySee, participant } from './access.ts'
import { readProject } from './reads.ts'
import { conflict, recordActivity } from './transition.ts'
import { nowIso, spoken } from './shared.ts'
import type { ProjectViews } from './views.ts'

// Files of a project: the client's (drawings, specifications), a proposal's (the freelancer's
// references) and an installment's (the submitted work).

/**
 * Tells the files module who may read a project's files and which files projects still use.
 * The owner, the contracted freelancer and (for the project's own files while it is open) any
 * signed-in freelancer may read them; a proposal's files are for its freelancer and the client;
 * strangers get 404 from the files module. The sweep may release a project file once no
 * project_file row links it.
 */
export function registerProjectFiles(db: DB, files: Pick<FileService, 'setReadPolicy' | 'setReferences'>) {
  files.setReadPolicy('project', async (file, caller) => {
    if (!caller) return false
    const link = await db
      .selectFrom('project_file as f')
      .innerJoin('project as p', 'p.id', 'f.project_id')
      .leftJoin('proposal as pr', 'pr.id', 'f.proposal_id')
      .leftJoin('contract as c', 'c.project_id', 'p.id')
      .select([
        'p.id',
        'p.client_id',
        'p.status',
        'p.visibility',
        'f.proposal_id',
        'f.installment_id',
        'pr.freelancer_id as proposer',
        'c.freelancer_id as hired',
      ])
      .where('f.file_id', '=', file.id)
      .executeTakeFirst()
    if (!link) return false
    if (caller.userId === link.client_id || caller.userId === link.hired) return true
    if (link.proposal_id) return caller.userId === link.proposer
    return !link.installment_id && link.status === 'open' && maySee(db, caller, link)
  })
  files.setReferences('project', async (executor, ids) =>
    (await executor.selectFrom('project_file').select('file_id').where('file_id', 'in', ids).execute()).map(
      (r) => r.file_id,
    ),
  )
}

type Target = { proposalId?: number; installmentId?: number; kind?: 'image' | 'document' }

/** What an upload attaches to: the caller's pending proposal, an installment of their contract, or the client's own project. */
async function uploadTarget(db: DB, caller: Caller, id: number, target: Target) {
  const { row, role, contract } = await participant(db, caller, id)
  if (target.proposalId) {
    const p = await db
      .selectFrom('proposal')
      .select(['id', 'project_id', 'freelancer_id', 'status'])
      .where('id', '=', target.proposalId)
      .executeTakeFirst()
    if (!p || p.project_id !== id || p.freelancer_id !== caller.userId) throw notFound('Proposal')
    if (p.status !== 'pending')
      throw conflict(`The proposal is ${p.status}; files can no longer be added`, p.status)
    return { row, proposalId: p.id, installmentId: null }
  }
  if (target.installmentId) {
    const i = await db
      .selectFrom('installment')
      .select(['id', 'contract_id', 'status'])
      .where('id', '=', target.installmentId)
      .executeTakeFirst()
    if (!i || !contract || i.contract_id !== contract.id || role !== 'freelancer')
      throw notFound('Installment')
    if (!['funded', 'changes_requested', 'submitted', 'pending'].includes(i.status))
      throw conflict(`The installment is ${spoken(i.status)}; files can no longer be added`, i.status)
    return { row, proposalId: null, installmentId: i.id }
  }
  if (role !== 'client') throw knownToOthers(row) ? forbidden() : notFound('Project')
  if (!['draft', 'open', 'in_progress'].includes(row.status))
    throw conflict(`The project is ${row.status}; files can no longer be added`, row.status)
  return { row, proposalId: null, installmentId: null }
}

type AttachmentDeps = {
  db: DB
  files: Pick<FileService, 'receive' | 'release' | 'downloadUrl'>
  views: Pick<ProjectViews, 'projectAttachments'>
}

async function attachments(deps: AttachmentDeps, caller: Caller, id: number) {
  const { db, views } = deps
  const { row, role } = await participant(db, caller, id)
  if (!role && (row.status !== 'open' || !(await maySee(db, caller, row)))) throw notFound('Project')
  return { data: await views.projectAttachments(id) }
}

/** Stores the request's file; an image over the image limit is released again and refused. */
async function receive(deps: AttachmentDeps, caller: Caller, request: Request, kind: 'image' | 'document') {
  const { db, files } = deps
  const stored = await files.receive(request, {
    kind,
    purpose: 'project',
    ownerId: caller.userId,
    limitKb: kind === 'image' ? limits.imageKb : limits.documentKb,
  })
  if (stored.attachmentType === 1 && stored.size > limits.imageKb * 1024) {
    await db.transaction().execute((trx) => files.release(trx, [stored.id]))
    throw new ApiError(400, 'File Size', `Image size should not exceed ${limits.imageKb} KB`, {
      file: [`Image size should not exceed ${limits.imageKb} KB`],
    })
  }
  return stored
}

async function upload(deps: AttachmentDeps, caller: Caller, id: number, request: Request, target: Target) {
  const { db, files } = deps
  const { row, proposalId, installmentId } = await uploadTarget(db, caller, id, target)
  const count = await db
    .selectFrom('project_file')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', id)
    .executeTakeFirst()
  if (Number(count?.n ?? 0) >= limits.attachmentsPerProject * 5)
    throw conflict('This project has too many files')
  // Images are checked as images (docs/product.md §5: 800 KB, image bytes, metadata stripped) when the
  // client says so (kind=image, which the web form does from the file name); anything else is a
  // document of up to 10 MB, and an image that arrives as a document still keeps the 800 KB rule.
  const stored = await receive(deps, caller, request, target.kind ?? 'document')
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('project_file')
      .values({
        project_id: id,
        file_id: stored.id,
        proposal_id: proposalId,
        installment_id: installmentId,
        uploaded_by: caller.userId,
        created_at: nowIso(),
      })
      .execute()
    await recordActivity(trx, id, caller.userId, 'file', stored.id, 'attach', row.status, stored.originalName)
  })
  return {
    id: stored.id,
    name: stored.originalName,
    url: files.downloadUrl(stored.id),
    attachmentType: stored.attachmentType,
    size: stored.size,
    mime: stored.mime,
    uploadedBy: caller.userId,
    createdAt: stored.createdAt,
  }
}

async function removeAttachment(deps: AttachmentDeps, caller: Caller, id: number, fileId: number) {
  const { db, files } = deps
  const link = await db
    .selectFrom('project_file')
    .selectAll()
    .where('project_id', '=', id)
    .where('file_id', '=', fileId)
    .executeTakeFirst()
  if (!link || link.uploaded_by !== caller.userId) throw notFound('File')
  const row = (await readProject(db, id))!
  if (!['draft', 'open'].includes(row.status) && !link.installment_id)
    throw conflict(`The project is ${spoken(row.status)}; its files are kept`, row.status)
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('project_file').where('id', '=', link.id).execute()
    await files.release(trx, [fileId])
    await recordActivity(trx, id, caller.userId, 'file', fileId, 'detach', row.status)
  })
  return { ok: true as const }
}

export function createAttachments(deps: AttachmentDeps) {
  return {
    attachments: attachments.bind(null, deps),
    upload: upload.bind(null, deps),
    removeAttachment: removeAttachment.bind(null, deps),
  }
}
