import { sql, type Selectable } from 'kysely'
import { enqueue } from '../../jobs/outbox.ts'
import type { DB } from '../../db/database.ts'
import type { Database, Locale } from '../../db/schema.ts'
import type { Dialect } from '../../db/migrations/helpers.ts'
import type { Caller } from '../../api/handler.ts'
import { ApiError, forbidden, notFound } from '../../api/errors.ts'
import type { FileService } from '../files/service.ts'
import type { ChatService } from '../chat/service.ts'
import { Role } from '../identity/permissions.ts'
import type { ProjectInput, ProposalInput, SearchQuery } from './contract.ts'
import type { ContractState, InstallmentState, ProjectState, ProposalState } from './machines.ts'
import { REVIEW_HIDDEN_DAYS, limits, planTotal, searchTokens } from './rules.ts'
import { createProjectSearchIndex } from './search-index.ts'
import { rateFreelancer } from '../profiles/listing.ts'
import { createProjectSearch } from './search.ts'
import { createWorkQueue } from './work-queue.ts'
import {
  conflict,
  inNamespace,
  lockRow,
  notify,
  recordActivity,
  recordCreated,
  transitionContract,
  transitionInstallment,
  transitionProject,
  transitionProposal,
  type Effect,
  type Trx,
} from './transition.ts'
import { displayName } from '../identity/display-name.ts'
import { readOnceById } from '../../db/read-scope.ts'
import { readContractOfProject, readProject, readProjectFiles, type ProjectFileRow } from './reads.ts'
import {
  activityRows,
  commentRows,
  filesOfInstallments,
  filesOfProposals,
  installmentRows,
  marksOf,
  projectTitleRows,
  proposerProfiles,
  receivedProposals,
  skillIdsOfProjects,
  usersByIds,
} from './statements.ts'
import type { CatalogueNames } from '../catalogue/service.ts'

type ProjectRow = Selectable<Database['project']>
type ProposalRow = Selectable<Database['proposal']>
type ContractRow = Selectable<Database['contract']>
type PlanItem = { title: string; amountMinor: number; dueDate?: string }
/** What the payments module does when an installment is released, inside the release's transaction. */
export interface MoneyMover {
  release(
    trx: Trx,
    i: {
      installmentId: number
      contractId: number
      clientId: number
      freelancerId: number
      amountMinor: number
      currency: string
    },
  ): Promise<void>
}

export const REVIEW_TOPIC = 'projects.review-visible'
const DAY = 86_400_000
const nowIso = () => new Date().toISOString()
const isClient = (c: Caller) => c.roles.includes(Role.Client) || c.roles.includes(Role.Company)
const isFreelancer = (c: Caller) => c.roles.includes(Role.Freelancer)
const parsePlan = (text: string): PlanItem[] => {
  try {
    return JSON.parse(text) as PlanItem[]
  } catch {
    return []
  }
}
const excerpt = (text: string) => (text.length > 280 ? `${text.slice(0, 277).trimEnd()}…` : text)
const badRequest = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })

export function createProjectsService({
  db,
  dialect,
  files,
  chat,
  catalogue,
}: {
  db: DB
  dialect: Dialect
  files: FileService
  chat: ChatService
  catalogue: { names: (locale: Locale, options?: { fresh?: boolean }) => Promise<CatalogueNames> }
}) {
  const index = createProjectSearchIndex(dialect)
  const finder = createProjectSearch({ db, index })

  // Files attached to projects: the owner, the contracted freelancer and (for the project's own
  // files while it is open) any signed-in freelancer may read them; a proposal's files are for its
  // freelancer and the client; strangers get 404 from the files module.
  files.setReadPolicy('project', async (file, caller) => {
    if (!caller) return false
    const link = await db
      .selectFrom('project_file as f')
      .innerJoin('project as p', 'p.id', 'f.project_id')
      .leftJoin('proposal as pr', 'pr.id', 'f.proposal_id')
      .leftJoin('contract as c', 'c.project_id', 'p.id')
      .select([
        'p.client_id',
        'p.status',
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
    return !link.installment_id && link.status === 'open'
  })
  // The sweep may release a project file once no project_file row links it (files/service.ts).
  files.setReferences('project', async (executor, ids) =>
    (await executor.selectFrom('project_file').select('file_id').where('file_id', 'in', ids).execute()).map(
      (r) => r.file_id,
    ),
  )

  // ——— reading helpers ———

  async function people(ids: number[]) {
    const unique = [...new Set(ids)].filter((v) => v != null)
    if (!unique.length) return new Map<number, { id: number; name: string; imageUrl: string | null }>()
    // Read once per page: a project's client and freelancer are shown by most of its calls (decision 281).
    const rows = await readOnceById('app_user', unique, (ids) => usersByIds(db, ids))
    return new Map(
      rows.map((u) => [
        u.id,
        {
          id: u.id,
          name: displayName(u),
          imageUrl: u.image_file_id ? files.downloadUrl(u.image_file_id) : null,
        },
      ]),
    )
  }
  const nobody = (id: number) => ({ id, name: '', imageUrl: null })
  const workQueue = createWorkQueue({ db, people })

  async function summaries(rows: ProjectRow[], locale: Locale) {
    if (!rows.length) return []
    const [skills, kept, clients] = await Promise.all([
      skillIdsOfProjects(
        db,
        rows.map((r) => r.id),
      ),
      catalogue.names(locale),
      people(rows.map((r) => r.client_id)),
    ])
    // The names are the catalogue's, kept for every page; one it does not have yet is read afresh.
    const known = (names: CatalogueNames) =>
      skills.every((s) => names.skill.has(s.skill_id)) &&
      rows.every(
        (r) =>
          (!r.category_id || names.category.has(r.category_id)) &&
          (!r.subcategory_id || names.subcategory.has(r.subcategory_id)),
      )
    const names = known(kept) ? kept : await catalogue.names(locale, { fresh: true })
    const named = (of: ReadonlyMap<number, string>, id: number | null) =>
      id && of.has(id) ? { id, name: of.get(id)! } : null
    const skillsOf = Map.groupBy(skills, (s) => s.project_id)
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      excerpt: excerpt(r.description),
      status: r.status as ProjectState,
      category: named(names.category, r.category_id),
      subcategory: named(names.subcategory, r.subcategory_id),
      skills: (skillsOf.get(r.id) ?? []).map((s) => named(names.skill, s.skill_id)!).filter(Boolean),
      budgetType: r.budget_type as 'fixed' | 'hourly',
      budgetMinor: r.budget_minor,
      currency: r.currency,
      durationDays: r.duration_days,
      deadline: r.deadline,
      experienceLevel: r.experience_level,
      remote: r.remote === 1,
      location: r.location,
      country: r.country,
      proposalCount: r.proposal_count,
      createdAt: r.created_at,
      publishedAt: r.published_at,
      client: clients.get(r.client_id) ?? nobody(r.client_id),
    }))
  }

  /** A file of a project as the API shows it. */
  const fileOut = (f: ProjectFileRow) => ({
    id: f.file_id,
    name: f.original_name,
    url: files.downloadUrl(f.file_id),
    attachmentType: f.attachment_type,
    size: f.size,
    mime: f.mime,
    uploadedBy: f.uploaded_by,
    createdAt: f.created_at,
  })

  /** The project's own files (not a proposal's or an installment's). */
  const projectAttachments = async (projectId: number) =>
    (await readProjectFiles(db, projectId))
      .filter((f) => f.proposal_id === null && f.installment_id === null)
      .map(fileOut)

  async function details(row: ProjectRow, caller: Caller | null, locale: Locale) {
    const [summary] = await summaries([row], locale)
    const [attachments, marks] = await Promise.all([
      projectAttachments(row.id),
      // Whether the caller saved the project and follows it, in one statement.
      caller ? marksOf(db, caller.userId, row.id).then((rows) => rows[0]) : null,
    ])
    return {
      ...summary,
      description: row.description,
      installments: parsePlan(row.installment_plan),
      attachments,
      wishlisted: !!marks?.wishlisted,
      subscribed: !!marks?.subscribed,
      isOwner: caller?.userId === row.client_id,
    }
  }

  /** `known`, when it is the only project of `projectIds` (the caller has read it already). */
  const soleProject = (projectIds: number[], known?: ProjectRow) =>
    known && projectIds.every((id) => id === known.id) ? known : undefined

  /** The titles and states of projects; `known`, the only one, when the caller has read it already. */
  const projectTitles = (projectIds: number[], known?: ProjectRow, executor: DB = db) => {
    const sole = soleProject(projectIds, known)
    return sole ? [sole] : projectTitleRows(executor, projectIds)
  }

  /** `known`: the project of all the rows, when the caller has read it already. */
  async function proposalsOut(rows: ProposalRow[], known?: ProjectRow) {
    if (!rows.length) return []
    const projectIds = [...new Set(rows.map((r) => r.project_id))]
    const sole = soleProject(projectIds, known)
    const [projects, users, profiles, fileRows] = await Promise.all([
      projectTitles(projectIds, known),
      people(rows.map((r) => r.freelancer_id)),
      proposerProfiles(
        db,
        rows.map((r) => r.freelancer_id),
      ),
      // The files of one project the page has read are read with all of its files, once (decision 283).
      sole
        ? readProjectFiles(db, sole.id).then((all) => all.filter((f) => f.proposal_id !== null))
        : filesOfProposals(
            db,
            rows.map((r) => r.id),
          ),
    ])
    const project = new Map(projects.map((p) => [p.id, p]))
    const profile = new Map(profiles.map((p) => [p.user_id, p]))
    const filesOf = Map.groupBy(fileRows, (f) => f.proposal_id ?? 0)
    return rows.map((r) => {
      const pf = profile.get(r.freelancer_id)
      return {
        id: r.id,
        projectId: r.project_id,
        projectTitle: project.get(r.project_id)?.title ?? '',
        projectStatus: (project.get(r.project_id)?.status ?? 'open') as ProjectState,
        freelancer: {
          ...(users.get(r.freelancer_id) ?? nobody(r.freelancer_id)),
          title: pf?.title || null,
          rating: (pf?.rating_x100 ?? 0) / 100,
          ratingCount: pf?.rating_count ?? 0,
        },
        status: r.status as ProposalState,
        coverLetter: r.cover_letter,
        bidMinor: r.bid_minor,
        currency: r.currency,
        durationDays: r.duration_days,
        installments: parsePlan(r.installment_plan),
        revision: r.revision,
        rejectReason: r.reject_reason,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        decidedAt: r.decided_at,
        attachments: (filesOf.get(r.id) ?? []).map(fileOut),
      }
    })
  }

  /** `known`: the project of all the rows, when the caller has read it already. */
  async function contractsOut(rows: ContractRow[], executor: DB = db, known?: ProjectRow) {
    if (!rows.length) return []
    const ids = rows.map((r) => r.id)
    const sole =
      executor === db
        ? soleProject(
            rows.map((r) => r.project_id),
            known,
          )
        : undefined
    const [projects, users, installments, fileRows] = await Promise.all([
      projectTitles(
        rows.map((r) => r.project_id),
        known,
        executor,
      ),
      people(rows.flatMap((r) => [r.client_id, r.freelancer_id])),
      installmentRows(executor, ids),
      // As in proposalsOut; a transaction (executor) reads its own.
      sole
        ? readProjectFiles(db, sole.id).then((all) => all.filter((f) => f.installment_id !== null))
        : filesOfInstallments(executor, ids),
    ])
    const title = new Map(projects.map((p) => [p.id, p.title]))
    const byContract = Map.groupBy(installments, (i) => i.contract_id)
    const filesOf = Map.groupBy(fileRows, (f) => f.installment_id ?? 0)
    return rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      projectTitle: title.get(r.project_id) ?? '',
      proposalId: r.proposal_id,
      client: users.get(r.client_id) ?? nobody(r.client_id),
      freelancer: users.get(r.freelancer_id) ?? nobody(r.freelancer_id),
      status: r.status as ContractState,
      amountMinor: r.amount_minor,
      currency: r.currency,
      roomId: Number(r.room_id),
      createdAt: r.created_at,
      endedAt: r.ended_at,
      installments: (byContract.get(r.id) ?? []).map((i) => ({
        id: i.id,
        position: i.position,
        title: i.title,
        amountMinor: i.amount_minor,
        currency: i.currency,
        dueDate: i.due_date,
        status: i.status as InstallmentState,
        submissionNote: i.submission_note,
        feedback: i.feedback,
        files: (filesOf.get(i.id) ?? []).map(fileOut),
      })),
    }))
  }

  /** A page of the project's history, newest first, and how many entries it has in all. */
  async function activityPage(projectId: number, offset: number, limit: number) {
    const rows = await activityRows(db, projectId, offset, limit)
    // A page that is not full, and not past the end, is the last one: its total needs no count.
    const last = rows.length < limit && (rows.length > 0 || offset === 0)
    const total = last
      ? offset + rows.length
      : Number(
          (
            await db
              .selectFrom('project_activity')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('project_id', '=', projectId)
              .executeTakeFirst()
          )?.n ?? 0,
        )
    const users = await people(rows.map((r) => r.actor_id ?? 0))
    const data = rows.map((r) => ({
      id: r.id,
      entity: r.entity,
      entityId: r.entity_id,
      action: r.action,
      fromState: r.from_state,
      toState: r.to_state,
      note: r.note,
      actor: r.actor_id ? (users.get(r.actor_id) ?? null) : null,
      createdAt: r.created_at,
    }))
    return { data, total }
  }

  // Read once per page (decision 281): the details, the activity and the refunds of a page ask for both.
  const project = (id: number) => readProject(db, id)
  const contractOfProject = (projectId: number) => readContractOfProject(db, projectId)

  /** The owner's project, or 404 (drafts and non-open projects of others are not acknowledged) / 403 (an open project of another client). */
  async function ownProject(caller: Caller, id: number) {
    const row = await project(id)
    if (!row) throw notFound('Project')
    if (row.client_id !== caller.userId) throw row.status === 'open' ? forbidden() : notFound('Project')
    return row
  }

  async function subscribers(trx: Trx, projectId: number) {
    return (
      await trx
        .selectFrom('project_subscription')
        .select('user_id')
        .where('project_id', '=', projectId)
        .execute()
    ).map((r) => r.user_id)
  }

  async function indexProject(
    executor: DB,
    row: { id: number; title: string; description: string; status: string },
  ) {
    if (row.status !== 'open') return index.remove(executor, row.id)
    const skills = await executor
      .selectFrom('project_skill as ps')
      .innerJoin('skill as s', 's.id', 'ps.skill_id')
      .select(['s.name_en', 's.name_es', 's.name_de', 's.name_it', 's.name_ru'])
      .where('ps.project_id', '=', row.id)
      .execute()
    // Skill names in all five languages, so a search in any of them finds the project.
    const names = [
      ...new Set(skills.flatMap((s) => [s.name_en, s.name_es, s.name_de, s.name_it, s.name_ru])),
    ].join(' ')
    await index.put(executor, row.id, { title: row.title, description: row.description, skills: names })
  }

  function publishGuard(row: {
    title: string
    description: string
    subcategory_id: number | null
    budget_minor: number
  }) {
    if (row.title.trim().length < limits.title.min || row.description.trim().length < limits.description.min)
      return 'A project needs a title and a description before it is published'
    if (!row.subcategory_id) return 'Choose a subcategory before publishing'
    if (row.budget_minor <= 0) return 'Set a budget before publishing'
    return null
  }

  async function checkCatalogue(input: ProjectInput) {
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

  function projectValues(input: ProjectInput, categoryId: number) {
    return {
      title: input.title,
      description: input.description,
      category_id: categoryId,
      subcategory_id: input.subcategoryId,
      budget_type: input.budgetType,
      budget_minor: input.budgetMinor,
      currency: input.currency,
      duration_days: input.durationDays ?? null,
      deadline: input.deadline ?? null,
      experience_level: input.experienceLevel ?? null,
      remote: input.remote ? 1 : 0,
      location: input.location || null,
      country: input.country ?? null,
      installment_plan: JSON.stringify(input.installments),
    }
  }

  // ——— projects ———

  async function create(caller: Caller, input: ProjectInput, locale: Locale) {
    if (!isClient(caller)) throw new ApiError(403, 'Forbidden', 'Only clients and companies post projects')
    const { categoryId, skillIds } = await checkCatalogue(input)
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
      if (skillIds.length)
        await trx
          .insertInto('project_skill')
          .values(skillIds.map((skill_id) => ({ project_id: row.id, skill_id })))
          .execute()
      await recordCreated(trx, 'project', row.id, 'draft', row.id, caller.userId)
      if (input.publish) {
        await transitionProject(trx, {
          id: row.id,
          current: 'draft',
          action: 'publish',
          actor: 'client',
          actorId: caller.userId,
          projectId: row.id,
          guard: () => publishGuard({ ...values, subcategory_id: input.subcategoryId }),
          set: { published_at: now },
        })
        await indexProject(trx, {
          id: row.id,
          title: input.title,
          description: input.description,
          status: 'open',
        })
      }
      return row.id
    })
    return details((await project(id))!, caller, locale)
  }

  async function update(caller: Caller, id: number, input: ProjectInput, locale: Locale) {
    const { categoryId, skillIds } = await checkCatalogue(input)
    await ownProject(caller, id)
    await db.transaction().execute(async (trx) => {
      const row = (await lockRow(trx, dialect, 'project', id))!
      if (row.status !== 'draft' && row.status !== 'open')
        throw conflict(
          `The project is ${row.status.replace('_', ' ')}; it can no longer be edited`,
          row.status,
        )
      if (row.status === 'open' && row.proposal_count > 0)
        throw conflict('The project has proposals; it can no longer be edited', row.status)
      const values = projectValues(input, categoryId)
      await trx
        .updateTable('project')
        .set({ ...values, updated_at: nowIso() })
        .where('id', '=', id)
        .execute()
      await trx.deleteFrom('project_skill').where('project_id', '=', id).execute()
      if (skillIds.length)
        await trx
          .insertInto('project_skill')
          .values(skillIds.map((skill_id) => ({ project_id: id, skill_id })))
          .execute()
      await recordActivity(trx, id, caller.userId, 'project', id, 'edit', row.status)
      if (row.status === 'draft' && input.publish) {
        const now = nowIso()
        await transitionProject(trx, {
          id,
          current: 'draft',
          action: 'publish',
          actor: 'client',
          actorId: caller.userId,
          projectId: id,
          guard: () => publishGuard({ ...values, subcategory_id: input.subcategoryId }),
          set: { published_at: now },
        })
      }
      const fresh = await trx
        .selectFrom('project')
        .select(['id', 'title', 'description', 'status'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      await indexProject(trx, fresh)
    })
    return details((await project(id))!, caller, locale)
  }

  async function remove(caller: Caller, id: number) {
    await ownProject(caller, id)
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

  async function updateState(caller: Caller, id: number, state: 'open' | 'cancelled' | 'completed') {
    await ownProject(caller, id)
    const status = await db.transaction().execute(async (trx) => {
      const row = (await lockRow(trx, dialect, 'project', id))!
      const current = row.status as ProjectState
      const base = { id, current, actor: 'client' as const, actorId: caller.userId, projectId: id }
      if (state === 'open') {
        const to = await transitionProject(trx, {
          ...base,
          action: 'publish',
          guard: () => publishGuard(row),
          set: { published_at: nowIso() },
          effects: [],
        })
        await indexProject(trx, { ...row, status: to })
        return to
      }
      const contract = await lockContract(trx, id)
      const followers = await subscribers(trx, id)
      if (state === 'cancelled') {
        if (current === 'in_progress' && contract) {
          const inFlight = await trx
            .selectFrom('installment')
            .select('id')
            .where('contract_id', '=', contract.id)
            .where('status', 'in', ['funded', 'submitted', 'changes_requested', 'approved'])
            .executeTakeFirst()
          const guard = () =>
            inFlight
              ? 'An installment is funded or under review; settle it before cancelling the contract'
              : null
          await transitionContract(trx, {
            id: contract.id,
            current: contract.status as ContractState,
            action: 'cancel',
            actor: 'client',
            actorId: caller.userId,
            projectId: id,
            guard,
            set: { ended_at: nowIso() },
          })
          const to = await transitionProject(trx, {
            ...base,
            action: 'cancel_contract',
            guard,
            effects: [
              notify([contract.freelancer_id, ...followers], 'contractCancelled', id, 'ProjectStatus', {
                title: row.title,
              }),
            ],
          })
          return to
        }
        const to = await transitionProject(trx, {
          ...base,
          action: 'cancel',
          effects: followers.length
            ? [notify(followers, 'projectCancelled', id, 'ProjectStatus', { title: row.title })]
            : [],
        })
        await closePending(trx, id, row.title, 'cancelled')
        await index.remove(trx, id)
        return to
      }
      // completed
      if (!contract)
        throw conflict(`The project is ${current.replace('_', ' ')}; it cannot complete now`, current)
      const open = await trx
        .selectFrom('installment')
        .select('id')
        .where('contract_id', '=', contract.id)
        .where('status', 'not in', ['approved', 'released'])
        .executeTakeFirst()
      const guard = () => (open ? 'Every installment must be approved before the project is completed' : null)
      await transitionContract(trx, {
        id: contract.id,
        current: contract.status as ContractState,
        action: 'complete',
        actor: 'client',
        actorId: caller.userId,
        projectId: id,
        guard,
        set: { ended_at: nowIso() },
      })
      const to = await transitionProject(trx, {
        ...base,
        action: 'complete',
        guard,
        effects: [
          notify([contract.freelancer_id, ...followers], 'projectCompleted', id, 'ProjectStatus', {
            title: row.title,
          }),
        ],
      })
      // Reputation: a completed contract is worth points to both sides (once per contract).
      for (const user of [contract.client_id, contract.freelancer_id]) {
        await trx
          .insertInto('wengaz_point_event')
          .values({
            user_id: user,
            reason: 'contract-completed',
            ref: String(contract.id),
            points: 10,
            created_at: nowIso(),
          })
          .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
          .execute()
      }
      return to
    })
    return { id, status }
  }

  async function lockContract(trx: Trx, projectId: number) {
    const c = await trx
      .selectFrom('contract')
      .select('id')
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    return c ? (await lockRow(trx, dialect, 'contract', c.id))! : null
  }

  /** Pending proposals of a project that is taken or cancelled are closed (rejected) by the system. */
  async function closePending(
    trx: Trx,
    projectId: number,
    title: string,
    reason: 'taken' | 'cancelled',
    except?: number,
  ) {
    let q = trx
      .selectFrom('proposal')
      .select(['id', 'freelancer_id'])
      .where('project_id', '=', projectId)
      .where('status', '=', 'pending')
    if (except) q = q.where('id', '!=', except)
    for (const p of await q.execute()) {
      await transitionProposal(trx, {
        id: p.id,
        current: 'pending',
        action: 'close',
        actor: 'system',
        actorId: null,
        projectId,
        note: reason,
        set: { decided_at: nowIso() },
        effects: [
          notify(
            [p.freelancer_id],
            reason === 'taken' ? 'projectTaken' : 'projectCancelled',
            projectId,
            'Proposal',
            { title },
          ),
        ],
      })
    }
  }

  async function search(query: SearchQuery, locale: Locale) {
    const { rows, total } = await finder.search(query)
    return { data: await summaries(rows, locale), page: query.page, pageSize: query.pageSize, total }
  }

  async function myProjects(
    caller: Caller,
    query: { status?: ProjectState; page: number; pageSize: number },
    locale: Locale,
  ) {
    let q = db.selectFrom('project').where('client_id', '=', caller.userId)
    if (query.status) q = q.where('status', '=', query.status)
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ])
    return {
      data: await summaries(rows, locale),
      page: query.page,
      pageSize: query.pageSize,
      total: Number(total?.n ?? 0),
    }
  }

  async function detailsForFreelancer(caller: Caller, id: number, locale: Locale) {
    const row = await project(id)
    if (!row) throw notFound('Project')
    const [proposal, contract] = await Promise.all([
      db
        .selectFrom('proposal')
        .selectAll()
        .where('project_id', '=', id)
        .where('freelancer_id', '=', caller.userId)
        .executeTakeFirst(),
      contractOfProject(id).then((c) => (c?.freelancer_id === caller.userId ? c : undefined)),
    ])
    // A freelancer sees open projects, and the ones they proposed on or hold a contract for.
    if (row.status !== 'open' && !proposal && !contract && row.client_id !== caller.userId)
      throw notFound('Project')
    const [proposalOut] = proposal ? await proposalsOut([proposal], row) : [null]
    const [contractOutRow] = contract ? await contractsOut([contract], db, row) : [null]
    return {
      project: await details(row, caller, locale),
      proposal: proposalOut ?? null,
      contract: contractOutRow ?? null,
      canPropose:
        row.status === 'open' && !proposal && isFreelancer(caller) && row.client_id !== caller.userId,
    }
  }

  async function detailsForClient(caller: Caller, id: number, locale: Locale) {
    const row = await ownProject(caller, id)
    const [proposals, contract] = await Promise.all([receivedProposals(db, id), contractOfProject(id)])
    const [proposalList, contracts, activity] = await Promise.all([
      proposalsOut(proposals, row),
      contract ? contractsOut([contract], db, row) : [],
      activityPage(id, 0, 50).then((page) => page.data),
    ])
    return {
      project: await details(row, caller, locale),
      proposals: proposalList,
      contract: contracts[0] ?? null,
      activity,
    }
  }

  /** Who takes part in a project: its client and, once hired, its freelancer. */
  async function participant(caller: Caller, id: number) {
    const row = await project(id)
    if (!row) throw notFound('Project')
    if (row.client_id === caller.userId)
      return { row, role: 'client' as const, contract: await contractOfProject(id) }
    const contract = await contractOfProject(id)
    if (contract && contract.freelancer_id === caller.userId)
      return { row, role: 'freelancer' as const, contract }
    return { row, role: null, contract }
  }

  async function attachments(caller: Caller, id: number) {
    const { row, role } = await participant(caller, id)
    if (!role && row.status !== 'open') throw notFound('Project')
    return { data: await projectAttachments(id) }
  }

  async function upload(
    caller: Caller,
    id: number,
    request: Request,
    target: { proposalId?: number; installmentId?: number; kind?: 'image' | 'document' },
  ) {
    const { row, role, contract } = await participant(caller, id)
    let proposalId: number | null = null
    let installmentId: number | null = null
    if (target.proposalId) {
      const p = await db
        .selectFrom('proposal')
        .select(['id', 'project_id', 'freelancer_id', 'status'])
        .where('id', '=', target.proposalId)
        .executeTakeFirst()
      if (!p || p.project_id !== id || p.freelancer_id !== caller.userId) throw notFound('Proposal')
      if (p.status !== 'pending')
        throw conflict(`The proposal is ${p.status}; files can no longer be added`, p.status)
      proposalId = p.id
    } else if (target.installmentId) {
      const i = await db
        .selectFrom('installment')
        .select(['id', 'contract_id', 'status'])
        .where('id', '=', target.installmentId)
        .executeTakeFirst()
      if (!i || !contract || i.contract_id !== contract.id || role !== 'freelancer')
        throw notFound('Installment')
      if (!['funded', 'changes_requested', 'submitted', 'pending'].includes(i.status))
        throw conflict(
          `The installment is ${i.status.replace('_', ' ')}; files can no longer be added`,
          i.status,
        )
      installmentId = i.id
    } else {
      if (role !== 'client') throw row.status === 'open' ? forbidden() : notFound('Project')
      if (!['draft', 'open', 'in_progress'].includes(row.status))
        throw conflict(`The project is ${row.status}; files can no longer be added`, row.status)
    }
    const count = await db
      .selectFrom('project_file')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', id)
      .executeTakeFirst()
    if (Number(count?.n ?? 0) >= limits.attachmentsPerProject * 5)
      throw conflict('This project has too many files')
    // Images are checked as images (SPEC §5: 800 KB, image bytes, metadata stripped) when the
    // client says so (kind=image, which the web form does from the file name); anything else is a
    // document of up to 10 MB, and an image that arrives as a document still keeps the 800 KB rule.
    const kind = target.kind ?? 'document'
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
      await recordActivity(
        trx,
        id,
        caller.userId,
        'file',
        stored.id,
        'attach',
        row.status,
        stored.originalName,
      )
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

  async function removeAttachment(caller: Caller, id: number, fileId: number) {
    const link = await db
      .selectFrom('project_file')
      .selectAll()
      .where('project_id', '=', id)
      .where('file_id', '=', fileId)
      .executeTakeFirst()
    if (!link || link.uploaded_by !== caller.userId) throw notFound('File')
    const row = (await project(id))!
    if (!['draft', 'open'].includes(row.status) && !link.installment_id)
      throw conflict(`The project is ${row.status.replace('_', ' ')}; its files are kept`, row.status)
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('project_file').where('id', '=', link.id).execute()
      await files.release(trx, [fileId])
      await recordActivity(trx, id, caller.userId, 'file', fileId, 'detach', row.status)
    })
    return { ok: true as const }
  }

  // ——— proposals ———

  const samePlan = (a: string, b: PlanItem[]) => a === JSON.stringify(b)

  async function propose(caller: Caller, projectId: number, input: ProposalInput) {
    if (!isFreelancer(caller)) throw new ApiError(403, 'Forbidden', 'Only freelancers send proposals')
    const row = await project(projectId)
    if (!row || (row.status !== 'open' && row.client_id !== caller.userId)) throw notFound('Project')
    const existing = async () =>
      db
        .selectFrom('proposal')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('freelancer_id', '=', caller.userId)
        .executeTakeFirst()
    // A repeated identical submit (a double click, a retried request) answers with the proposal
    // already made; a different second proposal is refused.
    const sameAsExisting = (p: ProposalRow) =>
      p.cover_letter === input.coverLetter &&
      p.bid_minor === input.bidMinor &&
      p.duration_days === input.durationDays &&
      samePlan(p.installment_plan, input.installments)
    const refuse = () =>
      new ApiError(409, 'Conflict', 'You have already sent a proposal on this project; edit it instead', {
        proposal: ['You have already sent a proposal on this project; edit it instead'],
      })
    let id: number
    try {
      id = await db.transaction().execute(async (trx) => {
        const p = (await lockRow(trx, dialect, 'project', projectId))!
        if (p.client_id === caller.userId) throw forbidden()
        const before = await trx
          .selectFrom('proposal')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('freelancer_id', '=', caller.userId)
          .executeTakeFirst()
        if (before) {
          if (sameAsExisting(before)) return before.id
          throw refuse()
        }
        if (p.status !== 'open')
          throw conflict(`The project is ${p.status.replace('_', ' ')}; it takes no proposals`, p.status)
        if (
          p.budget_type === 'fixed' &&
          input.installments.length &&
          planTotal(input.installments) !== input.bidMinor
        )
          throw badRequest('installments', 'must add up to the bid')
        const now = nowIso()
        const created = await trx
          .insertInto('proposal')
          .values({
            project_id: projectId,
            freelancer_id: caller.userId,
            status: 'pending',
            cover_letter: input.coverLetter,
            bid_minor: input.bidMinor,
            currency: p.currency,
            duration_days: input.durationDays,
            installment_plan: JSON.stringify(input.installments),
            revision: 1,
            reject_reason: null,
            created_at: now,
            updated_at: now,
            decided_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await trx
          .updateTable('project')
          .set((eb) => ({ proposal_count: eb('proposal_count', '+', 1) }))
          .where('id', '=', projectId)
          .execute()
        await recordCreated(trx, 'proposal', created.id, 'pending', projectId, caller.userId, [
          notify([p.client_id], 'proposalReceived', projectId, 'Proposal', { title: p.title }),
        ])
        return created.id
      })
    } catch (error) {
      if (error instanceof ApiError) throw error
      // Two identical submits at the same moment: the unique (project, freelancer) key let one in.
      const after = await existing()
      if (!after) throw error
      if (!sameAsExisting(after)) throw refuse()
      id = after.id
    }
    const [out] = await proposalsOut([
      await db.selectFrom('proposal').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    ])
    return out
  }

  async function ownProposal(caller: Caller, proposalId: number) {
    const p = await db.selectFrom('proposal').selectAll().where('id', '=', proposalId).executeTakeFirst()
    if (!p || p.freelancer_id !== caller.userId) throw notFound('Proposal')
    return p
  }

  async function reviseProposal(caller: Caller, proposalId: number, input: ProposalInput) {
    await ownProposal(caller, proposalId)
    await db.transaction().execute(async (trx) => {
      const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
      const proj = await trx
        .selectFrom('project')
        .select(['status', 'budget_type', 'client_id', 'title'])
        .where('id', '=', p.project_id)
        .executeTakeFirstOrThrow()
      if (
        proj.budget_type === 'fixed' &&
        input.installments.length &&
        planTotal(input.installments) !== input.bidMinor
      )
        throw badRequest('installments', 'must add up to the bid')
      await trx
        .insertInto('proposal_revision')
        .values({
          proposal_id: p.id,
          revision: p.revision,
          cover_letter: p.cover_letter,
          bid_minor: p.bid_minor,
          duration_days: p.duration_days,
          installment_plan: p.installment_plan,
          created_at: p.updated_at,
        })
        .execute()
      await transitionProposal(trx, {
        id: p.id,
        current: p.status as ProposalState,
        action: 'revise',
        actor: 'freelancer',
        actorId: caller.userId,
        projectId: p.project_id,
        guard: () =>
          proj.status === 'open'
            ? null
            : `The project is ${proj.status.replace('_', ' ')}; the proposal can no longer change`,
        set: {
          cover_letter: input.coverLetter,
          bid_minor: input.bidMinor,
          duration_days: input.durationDays,
          installment_plan: JSON.stringify(input.installments),
          revision: p.revision + 1,
        },
        note: `revision ${p.revision + 1}`,
        effects: [
          notify([proj.client_id], 'proposalRevised', p.project_id, 'Proposal', { title: proj.title }),
        ],
      })
    })
    const [out] = await proposalsOut([
      await db.selectFrom('proposal').selectAll().where('id', '=', proposalId).executeTakeFirstOrThrow(),
    ])
    return out
  }

  async function withdrawProposal(caller: Caller, proposalId: number) {
    await ownProposal(caller, proposalId)
    await db.transaction().execute(async (trx) => {
      const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
      const proj = await trx
        .selectFrom('project')
        .select(['client_id', 'title'])
        .where('id', '=', p.project_id)
        .executeTakeFirstOrThrow()
      await transitionProposal(trx, {
        id: p.id,
        current: p.status as ProposalState,
        action: 'withdraw',
        actor: 'freelancer',
        actorId: caller.userId,
        projectId: p.project_id,
        set: { decided_at: nowIso() },
        effects: [
          notify([proj.client_id], 'proposalWithdrawn', p.project_id, 'Proposal', { title: proj.title }),
        ],
      })
      await trx
        .updateTable('project')
        .set((eb) => ({ proposal_count: eb('proposal_count', '-', 1) }))
        .where('id', '=', p.project_id)
        .where('proposal_count', '>', 0)
        .execute()
    })
    const [out] = await proposalsOut([
      await db.selectFrom('proposal').selectAll().where('id', '=', proposalId).executeTakeFirstOrThrow(),
    ])
    return out
  }

  async function proposalRevisions(caller: Caller, proposalId: number) {
    const p = await db
      .selectFrom('proposal as pr')
      .innerJoin('project as p', 'p.id', 'pr.project_id')
      .select(['pr.freelancer_id', 'p.client_id'])
      .where('pr.id', '=', proposalId)
      .executeTakeFirst()
    if (!p || (p.freelancer_id !== caller.userId && p.client_id !== caller.userId)) throw notFound('Proposal')
    const rows = await db
      .selectFrom('proposal_revision')
      .selectAll()
      .where('proposal_id', '=', proposalId)
      .orderBy('revision', 'desc')
      .execute()
    return {
      data: rows.map((r) => ({
        revision: r.revision,
        coverLetter: r.cover_letter,
        bidMinor: r.bid_minor,
        durationDays: r.duration_days,
        installments: parsePlan(r.installment_plan),
        createdAt: r.created_at,
      })),
    }
  }

  async function myProposals(
    caller: Caller,
    query: { status?: ProposalState; page: number; pageSize: number },
  ) {
    let q = db.selectFrom('proposal').where('freelancer_id', '=', caller.userId)
    if (query.status) q = q.where('status', '=', query.status)
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ])
    return {
      data: await proposalsOut(rows),
      page: query.page,
      pageSize: query.pageSize,
      total: Number(total?.n ?? 0),
    }
  }

  async function clientProposals(
    caller: Caller,
    projectId: number,
    query: { status?: ProposalState; page: number; pageSize: number },
  ) {
    await ownProject(caller, projectId)
    let q = db.selectFrom('proposal').where('project_id', '=', projectId).where('status', '!=', 'withdrawn')
    if (query.status) q = q.where('status', '=', query.status)
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ])
    return {
      data: await proposalsOut(rows),
      page: query.page,
      pageSize: query.pageSize,
      total: Number(total?.n ?? 0),
    }
  }

  /** The client's decision on a proposal: both ids must match, the caller must own the project. */
  async function clientsProposal(caller: Caller, proposalId: number, projectId: number) {
    const proj = await project(projectId)
    if (!proj) throw notFound('Project')
    if (proj.client_id !== caller.userId)
      throw isFreelancer(caller) || proj.status === 'open' ? forbidden() : notFound('Project')
    const p = await db
      .selectFrom('proposal')
      .select(['id', 'project_id'])
      .where('id', '=', proposalId)
      .executeTakeFirst()
    if (!p || p.project_id !== projectId) throw notFound('Proposal')
  }

  async function accept(caller: Caller, proposalId: number, projectId: number) {
    await clientsProposal(caller, proposalId, projectId)
    const contractId = await db.transaction().execute(async (trx) => {
      // The project row is locked first, so two accepts on one project run one after the other.
      const proj = (await lockRow(trx, dialect, 'project', projectId))!
      const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
      const existing = await trx
        .selectFrom('contract')
        .select(['id', 'proposal_id'])
        .where('project_id', '=', projectId)
        .executeTakeFirst()
      if (p.status === 'accepted' && existing?.proposal_id === p.id) return existing.id
      const guard = () =>
        proj.status !== 'open'
          ? `The project is ${proj.status.replace('_', ' ')}; it takes no more hires`
          : existing
            ? 'The project already has a contract'
            : null
      const followers = await subscribers(trx, projectId)
      await transitionProposal(trx, {
        id: p.id,
        current: p.status as ProposalState,
        action: 'accept',
        actor: 'client',
        actorId: caller.userId,
        projectId,
        guard,
        set: { decided_at: nowIso() },
        effects: [
          notify([p.freelancer_id], 'proposalAccepted', projectId, 'Proposal', { title: proj.title }),
        ],
      })
      await transitionProject(trx, {
        id: projectId,
        current: proj.status as ProjectState,
        action: 'hire',
        actor: 'client',
        actorId: caller.userId,
        projectId,
        effects: followers.length
          ? [
              notify(
                followers.filter((f) => f !== p.freelancer_id),
                'projectTaken',
                projectId,
                'ProjectStatus',
                { title: proj.title },
              ),
            ]
          : [],
      })
      const now = nowIso()
      // The two parties' chat room opens with the contract (the same room if the client already opened it to ask questions).
      const roomId = await chat.openRoom(trx, {
        projectId,
        clientId: proj.client_id,
        freelancerId: p.freelancer_id,
      })
      const contract = await trx
        .insertInto('contract')
        .values({
          project_id: projectId,
          proposal_id: p.id,
          client_id: proj.client_id,
          freelancer_id: p.freelancer_id,
          status: 'active',
          amount_minor: p.bid_minor,
          currency: p.currency,
          room_id: String(roomId),
          created_at: now,
          updated_at: now,
          ended_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      // The agreed installments: the proposal's plan, else the project's when it matches the bid, else one for the whole bid.
      const proposed = parsePlan(p.installment_plan)
      const projectPlan = parsePlan(proj.installment_plan)
      const agreed = proposed.length
        ? proposed
        : projectPlan.length && planTotal(projectPlan) === p.bid_minor
          ? projectPlan
          : [{ title: proj.title.slice(0, limits.installmentTitle), amountMinor: p.bid_minor }]
      await trx
        .insertInto('installment')
        .values(
          agreed.map((i, n) => ({
            contract_id: contract.id,
            position: n + 1,
            title: i.title,
            amount_minor: i.amountMinor,
            currency: p.currency,
            due_date: i.dueDate ?? null,
            status: 'pending',
            submission_note: null,
            feedback: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute()
      await recordCreated(trx, 'contract', contract.id, 'active', projectId, caller.userId, [
        notify([p.freelancer_id, proj.client_id], 'contractStarted', projectId, 'Project', {
          title: proj.title,
        }),
      ])
      await closePending(trx, projectId, proj.title, 'taken', p.id)
      await index.remove(trx, projectId)
      return contract.id
    })
    const [out] = await contractsOut([
      await db.selectFrom('contract').selectAll().where('id', '=', contractId).executeTakeFirstOrThrow(),
    ])
    return out
  }

  async function reject(caller: Caller, proposalId: number, projectId: number, reason?: string) {
    await clientsProposal(caller, proposalId, projectId)
    await db.transaction().execute(async (trx) => {
      const proj = (await lockRow(trx, dialect, 'project', projectId))!
      const p = (await lockRow(trx, dialect, 'proposal', proposalId))!
      await transitionProposal(trx, {
        id: p.id,
        current: p.status as ProposalState,
        action: 'reject',
        actor: 'client',
        actorId: caller.userId,
        projectId,
        note: reason || null,
        set: { decided_at: nowIso(), reject_reason: reason || null },
        effects: [
          notify([p.freelancer_id], 'proposalRejected', projectId, 'Proposal', { title: proj.title }),
        ],
      })
    })
    const [out] = await proposalsOut([
      await db.selectFrom('proposal').selectAll().where('id', '=', proposalId).executeTakeFirstOrThrow(),
    ])
    return out
  }

  // ——— contracts ———

  async function myContracts(
    caller: Caller,
    query: { status?: ContractState; page: number; pageSize: number },
  ) {
    let q = db
      .selectFrom('contract')
      .where((eb) => eb.or([eb('freelancer_id', '=', caller.userId), eb('client_id', '=', caller.userId)]))
    if (query.status) q = q.where('status', '=', query.status)
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ])
    return {
      data: await contractsOut(rows),
      page: query.page,
      pageSize: query.pageSize,
      total: Number(total?.n ?? 0),
    }
  }

  async function installmentAction(
    caller: Caller,
    installmentId: number,
    action: 'submit' | 'request-changes' | 'approve',
    note?: string,
  ) {
    const found = await db
      .selectFrom('installment as i')
      .innerJoin('contract as c', 'c.id', 'i.contract_id')
      .select(['c.id', 'c.client_id', 'c.freelancer_id', 'c.project_id'])
      .where('i.id', '=', installmentId)
      .executeTakeFirst()
    if (!found || (found.client_id !== caller.userId && found.freelancer_id !== caller.userId))
      throw notFound('Installment')
    const actor = found.client_id === caller.userId ? ('client' as const) : ('freelancer' as const)
    await db.transaction().execute(async (trx) => {
      const contract = (await lockRow(trx, dialect, 'contract', found.id))!
      const i = (await lockRow(trx, dialect, 'installment', installmentId))!
      const title = (
        await trx
          .selectFrom('project')
          .select('title')
          .where('id', '=', contract.project_id)
          .executeTakeFirstOrThrow()
      ).title
      const active = () => (contract.status === 'active' ? null : `The contract is ${contract.status}`)
      const other = actor === 'client' ? contract.freelancer_id : contract.client_id
      const step = {
        id: i.id,
        current: i.status as InstallmentState,
        actor,
        actorId: caller.userId,
        projectId: contract.project_id,
        note: note || null,
      }
      const params = { title, installment: i.title }
      if (action === 'submit') {
        await transitionInstallment(trx, {
          ...step,
          action: 'submit',
          guard: () => active() ?? (note ? null : 'Describe the work you submit'),
          set: { submission_note: note ?? null },
          effects: [notify([other], 'installmentSubmitted', contract.project_id, 'Project', params)],
        })
      } else if (action === 'request-changes') {
        await transitionInstallment(trx, {
          ...step,
          action: 'request_changes',
          guard: () => active() ?? (note ? null : 'Say what should change'),
          set: { feedback: note ?? null },
          effects: [notify([other], 'installmentChangesRequested', contract.project_id, 'Project', params)],
        })
      } else {
        await transitionInstallment(trx, {
          ...step,
          action: 'approve',
          guard: active,
          set: { feedback: note || i.feedback },
          effects: [notify([other], 'installmentApproved', contract.project_id, 'Project', params)],
        })
        // Approval releases the held money at once, in the same transaction (decision 172).
        await releaseLocked(trx, contract, { ...i, status: 'approved' }, title)
      }
    })
    const [out] = await contractsOut([
      await db.selectFrom('contract').selectAll().where('id', '=', found.id).executeTakeFirstOrThrow(),
    ])
    return out
  }

  // ——— money: the payments module moves it, these are the installments' side of it ———

  let mover: MoneyMover | null = null

  async function releaseLocked(
    trx: Trx,
    contract: ContractRow,
    i: Selectable<Database['installment']>,
    title: string,
  ) {
    if (!mover) throw new Error('no payments module to release the money')
    await mover.release(trx, {
      installmentId: i.id,
      contractId: contract.id,
      clientId: contract.client_id,
      freelancerId: contract.freelancer_id,
      amountMinor: i.amount_minor,
      currency: i.currency,
    })
    await transitionInstallment(trx, {
      id: i.id,
      current: i.status as InstallmentState,
      action: 'release',
      actor: 'system',
      actorId: null,
      projectId: contract.project_id,
      effects: [
        notify([contract.freelancer_id], 'installmentReleased', contract.project_id, 'Project', {
          title,
          installment: i.title,
        }),
      ],
    })
  }

  /** Releases an approved installment (system: a retry, the auto-release timer); a repeat finds it released and answers false. */
  async function releaseInstallment(installmentId: number) {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('installment')
        .select('contract_id')
        .where('id', '=', installmentId)
        .executeTakeFirst()
      if (!row) throw notFound('Installment')
      const contract = (await lockRow(trx, dialect, 'contract', row.contract_id))!
      const i = (await lockRow(trx, dialect, 'installment', installmentId))!
      if (i.status === 'released') return false
      const title = (
        await trx
          .selectFrom('project')
          .select('title')
          .where('id', '=', contract.project_id)
          .executeTakeFirstOrThrow()
      ).title
      await releaseLocked(trx, contract, i, title)
      return true
    })
  }

  /**
   * The auto-release timer (decision 183): a submission still unanswered since before `submittedBefore`
   * is approved by the system and released, in one transaction; a second instance finds it moved and answers false.
   */
  async function autoRelease(installmentId: number, submittedBefore: string) {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('installment')
        .select('contract_id')
        .where('id', '=', installmentId)
        .executeTakeFirst()
      if (!row) return false
      const contract = (await lockRow(trx, dialect, 'contract', row.contract_id))!
      const i = (await lockRow(trx, dialect, 'installment', installmentId))!
      if (contract.status !== 'active' || i.status !== 'submitted' || i.updated_at >= submittedBefore)
        return false
      const title = (
        await trx
          .selectFrom('project')
          .select('title')
          .where('id', '=', contract.project_id)
          .executeTakeFirstOrThrow()
      ).title
      const params = { title, installment: i.title }
      await transitionInstallment(trx, {
        id: i.id,
        current: 'submitted',
        action: 'approve',
        actor: 'system',
        actorId: null,
        projectId: contract.project_id,
        effects: [
          inNamespace(
            'refunds',
            notify(
              [contract.client_id, contract.freelancer_id],
              'installmentAutoApproved',
              contract.project_id,
              'Project',
              params,
            ),
          ),
        ],
      })
      await releaseLocked(trx, contract, { ...i, status: 'approved' }, title)
      return true
    })
  }

  /** A project's contract and its installments as payments sees them, locked for the caller's transaction. */
  async function contractForPayment(trx: Trx, projectId: number) {
    const found = await trx
      .selectFrom('contract')
      .select('id')
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (!found) return undefined
    const c = (await lockRow(trx, dialect, 'contract', found.id))!
    const project = await trx
      .selectFrom('project')
      .select('title')
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow()
    const installments = await trx
      .selectFrom('installment')
      .select(['id', 'position', 'title', 'amount_minor', 'currency', 'status'])
      .where('contract_id', '=', c.id)
      .orderBy('position')
      .execute()
    return {
      id: c.id,
      projectId,
      title: project.title,
      clientId: c.client_id,
      freelancerId: c.freelancer_id,
      status: c.status as ContractState,
      currency: c.currency,
      installments,
    }
  }

  /** The gateway confirmed a payment: its installments still pending on an active contract become funded (answers their ids). */
  async function fundInstallments(trx: Trx, contractId: number, installmentIds: number[]) {
    const contract = (await lockRow(trx, dialect, 'contract', contractId))!
    if (contract.status !== 'active') return []
    const title = (
      await trx
        .selectFrom('project')
        .select('title')
        .where('id', '=', contract.project_id)
        .executeTakeFirstOrThrow()
    ).title
    const funded: number[] = []
    for (const id of [...installmentIds].sort((a, b) => a - b)) {
      const i = await lockRow(trx, dialect, 'installment', id)
      if (!i || i.contract_id !== contractId || i.status !== 'pending') continue
      await transitionInstallment(trx, {
        id,
        current: 'pending',
        action: 'fund',
        actor: 'system',
        actorId: null,
        projectId: contract.project_id,
        effects: [
          notify([contract.freelancer_id], 'installmentFunded', contract.project_id, 'Project', {
            title,
            installment: i.title,
          }),
        ],
      })
      funded.push(id)
    }
    return funded
  }

  async function activities(caller: Caller, projectId: number, query: { page: number; pageSize: number }) {
    const { role } = await participant(caller, projectId)
    if (!role) throw notFound('Project')
    const { data, total } = await activityPage(projectId, (query.page - 1) * query.pageSize, query.pageSize)
    return { data, page: query.page, pageSize: query.pageSize, total }
  }

  /**
   * The chat room of the caller and the other party of a project. The client opens it with any
   * freelancer who proposed (to ask questions before hiring) or holds the contract; a freelancer
   * opens it with the client once hired, or finds the room the client opened. Anyone else: 404.
   */
  async function createRoom(caller: Caller, projectId: number, userId: number) {
    const proj = await project(projectId)
    if (!proj || userId === caller.userId) throw notFound('Project')
    const asClient = proj.client_id === caller.userId
    const freelancerId = asClient ? userId : caller.userId
    if (!asClient && userId !== proj.client_id) throw notFound('Project')
    const proposed = await db
      .selectFrom('proposal')
      .select('status')
      .where('project_id', '=', projectId)
      .where('freelancer_id', '=', freelancerId)
      .orderBy('id', 'desc')
      .executeTakeFirst()
    const hired = proposed?.status === 'accepted'
    const existing = await chat.roomOf(db, projectId, freelancerId)
    if (!proposed || (!asClient && !hired && !existing)) throw notFound('Project')
    const roomId =
      existing ??
      (await db
        .transaction()
        .execute((trx) => chat.openRoom(trx, { projectId, clientId: proj.client_id, freelancerId })))
    return { roomId, projectId, participants: [proj.client_id, freelancerId] }
  }

  // ——— around a project ———

  async function visibleProject(caller: Caller | null, id: number) {
    const row = await project(id)
    if (!row) throw notFound('Project')
    if (row.status === 'draft' && row.client_id !== caller?.userId) throw notFound('Project')
    return row
  }

  async function follow(
    table: 'project_wishlist' | 'project_subscription',
    caller: Caller,
    id: number,
    on: boolean,
  ) {
    await visibleProject(caller, id)
    if (on)
      await db
        .insertInto(table)
        .values({ user_id: caller.userId, project_id: id, created_at: nowIso() })
        .onConflict((oc) => oc.columns(['user_id', 'project_id']).doNothing())
        .execute()
    else
      await db.deleteFrom(table).where('user_id', '=', caller.userId).where('project_id', '=', id).execute()
    return { ok: true as const }
  }

  async function wishlist(caller: Caller, query: { page: number; pageSize: number }, locale: Locale) {
    const q = db
      .selectFrom('project_wishlist as w')
      .innerJoin('project as p', 'p.id', 'w.project_id')
      .where('w.user_id', '=', caller.userId)
      .where((eb) => eb.or([eb('p.status', '!=', 'draft'), eb('p.client_id', '=', caller.userId)]))
    const [rows, total] = await Promise.all([
      q
        .selectAll('p')
        .orderBy('w.created_at', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ])
    return {
      data: await summaries(rows as ProjectRow[], locale),
      page: query.page,
      pageSize: query.pageSize,
      total: Number(total?.n ?? 0),
    }
  }

  /** The ids among `ids` that the caller has saved; a list page marks its Save buttons with them. */
  async function savedAmong(caller: Caller, ids: number[]) {
    if (!ids.length) return { data: [] }
    const rows = await db
      .selectFrom('project_wishlist')
      .select('project_id')
      .where('user_id', '=', caller.userId)
      .where('project_id', 'in', ids)
      .execute()
    return { data: rows.map((r) => r.project_id) }
  }

  async function comments(caller: Caller | null, id: number) {
    const row = await visibleProject(caller, id)
    const rows = await commentRows(db, id)
    const users = await people(rows.map((r) => r.user_id))
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

  async function addComment(caller: Caller, id: number, body: string, parentId?: number) {
    const row = await visibleProject(caller, id)
    if (row.status !== 'open')
      throw conflict(`The project is ${row.status.replace('_', ' ')}; questions are closed`, row.status)
    if (parentId) {
      const parent = await db
        .selectFrom('project_comment')
        .select('project_id')
        .where('id', '=', parentId)
        .executeTakeFirst()
      if (!parent || parent.project_id !== id)
        throw badRequest('parentId', 'is not a comment of this project')
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
      if (to.length) await recordEffects(trx, [notify(to, 'newComment', id, 'Project', { title: row.title })])
      return c
    })
    const users = await people([caller.userId])
    return {
      id: created.id,
      parentId: created.parent_id,
      body: created.body,
      author: users.get(caller.userId) ?? nobody(caller.userId),
      isClient: caller.userId === row.client_id,
      createdAt: created.created_at,
    }
  }

  async function recordEffects(trx: Trx, effects: Effect[]) {
    for (const e of effects) await enqueue(trx, e.topic, e.payload, { delayMs: e.delayMs })
  }

  async function homeSearch(type: 'projects' | 'workneerer', term: string) {
    const t = term.trim()
    if (type === 'workneerer') {
      const q = searchTokens(t).join(' ')
      return {
        data: [
          {
            id: 0,
            title: q || 'all',
            subtitle: '',
            url: `/freelancers/freelancersearch?search=${encodeURIComponent(q || 'all')}`,
          },
        ],
      }
    }
    const text = index.match(t)
    let q = text
      ? db.selectFrom(text).innerJoin('project as p', 'p.id', 'm.project_id')
      : db.selectFrom('project as p')
    q = q.where('p.status', '=', 'open')
    const rows = await (
      text
        ? q.select(['p.id', 'p.title', 'p.budget_minor', 'p.currency']).orderBy(sql`m.score`)
        : q.select(['p.id', 'p.title', 'p.budget_minor', 'p.currency']).orderBy('p.published_at', 'desc')
    )
      .limit(8)
      .execute()
    return {
      data: rows.map((r) => ({
        id: r.id,
        title: r.title,
        subtitle: `${(r.budget_minor / 100).toFixed(2)} ${r.currency}`,
        url: `/projects/details/${r.id}`,
      })),
    }
  }

  // ——— reviews ———

  async function recomputeRating(executor: DB, userId: number) {
    const now = nowIso()
    const agg = await executor
      .selectFrom('review')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
      .where('subject_id', '=', userId)
      .where('visible_from', '<=', now)
      .executeTakeFirst()
    const count = Number(agg?.n ?? 0)
    const avg = count ? Number(agg?.avg ?? 0) : 0
    await rateFreelancer(executor, dialect, userId, { average: avg, count })
  }

  /**
   * wengazPoint for five-star reviews of a contract, once each review is visible: awarding a hidden
   * one would tell its subject the rating before they have written theirs. Idempotent.
   */
  async function awardReviewPoints(executor: DB, contractId: number) {
    const now = nowIso()
    const rows = await executor
      .selectFrom('review')
      .select(['id', 'subject_id'])
      .where('contract_id', '=', contractId)
      .where('rating', '=', 5)
      .where('visible_from', '<=', now)
      .execute()
    for (const r of rows) {
      await executor
        .insertInto('wengaz_point_event')
        .values({
          user_id: r.subject_id,
          reason: 'five-star-review',
          ref: String(r.id),
          points: 5,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['user_id', 'reason', 'ref']).doNothing())
        .execute()
    }
  }

  async function writeReview(caller: Caller, contractId: number, rating: number, body: string) {
    const contract = await db
      .selectFrom('contract')
      .selectAll()
      .where('id', '=', contractId)
      .executeTakeFirst()
    if (!contract || (contract.client_id !== caller.userId && contract.freelancer_id !== caller.userId))
      throw notFound('Contract')
    if (contract.status !== 'completed')
      throw conflict(`The contract is ${contract.status}; reviews open when it is completed`, contract.status)
    const subject = contract.client_id === caller.userId ? contract.freelancer_id : contract.client_id
    let id: number
    try {
      id = await db.transaction().execute(async (trx) => {
        await lockRow(trx, dialect, 'contract', contractId)
        if (
          await trx
            .selectFrom('review')
            .select('id')
            .where('contract_id', '=', contractId)
            .where('author_id', '=', caller.userId)
            .executeTakeFirst()
        ) {
          throw conflict('You have already reviewed this contract')
        }
        const now = nowIso()
        const other = await trx
          .selectFrom('review')
          .select('id')
          .where('contract_id', '=', contractId)
          .where('author_id', '=', subject)
          .executeTakeFirst()
        const created = await trx
          .insertInto('review')
          .values({
            contract_id: contractId,
            project_id: contract.project_id,
            author_id: caller.userId,
            subject_id: subject,
            rating,
            body,
            created_at: now,
            visible_from: other ? now : new Date(Date.now() + REVIEW_HIDDEN_DAYS * DAY).toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (other)
          await trx.updateTable('review').set({ visible_from: now }).where('id', '=', other.id).execute()
        await recordActivity(
          trx,
          contract.project_id,
          caller.userId,
          'review',
          created.id,
          'review',
          'completed',
        )
        await awardReviewPoints(trx, contractId)
        await recomputeRating(trx, contract.client_id)
        await recomputeRating(trx, contract.freelancer_id)
        // When the other side never writes, the review shows after 14 days: a timer recomputes the ratings then.
        const effects: Effect[] = [notify([subject], 'reviewReceived', contract.project_id, 'Project', {})]
        if (!other)
          effects.push({
            topic: REVIEW_TOPIC,
            payload: { userIds: [contract.client_id, contract.freelancer_id], contractId },
            delayMs: REVIEW_HIDDEN_DAYS * DAY + 1000,
          })
        await recordEffects(trx, effects)
        return created.id
      })
    } catch (error) {
      if (error instanceof ApiError) throw error
      if (
        await db
          .selectFrom('review')
          .select('id')
          .where('contract_id', '=', contractId)
          .where('author_id', '=', caller.userId)
          .executeTakeFirst()
      )
        throw conflict('You have already reviewed this contract')
      throw error
    }
    const [out] = await reviewsOut(
      [await db.selectFrom('review').selectAll().where('id', '=', id).executeTakeFirstOrThrow()],
      caller,
    )
    return out
  }

  async function reviewsOut(rows: Selectable<Database['review']>[], caller: Caller | null) {
    const [users, projects] = await Promise.all([
      people(rows.flatMap((r) => [r.author_id, r.subject_id])),
      rows.length
        ? db
            .selectFrom('project')
            .select(['id', 'title'])
            .where(
              'id',
              'in',
              rows.map((r) => r.project_id),
            )
            .execute()
        : [],
    ])
    const title = new Map(projects.map((p) => [p.id, p.title]))
    const now = nowIso()
    return rows.map((r) => {
      const visible = r.visible_from <= now
      // A hidden review is shown to its author only.
      return {
        id: r.id,
        projectId: r.project_id,
        projectTitle: title.get(r.project_id) ?? '',
        author: users.get(r.author_id) ?? nobody(r.author_id),
        subject: users.get(r.subject_id) ?? nobody(r.subject_id),
        rating: visible || r.author_id === caller?.userId ? r.rating : 0,
        body: visible || r.author_id === caller?.userId ? r.body : '',
        createdAt: r.created_at,
        visible,
      }
    })
  }

  /** What a public profile shows: only visible reviews about the user, newest first, and their average. */
  async function publicReviews(userId: number, query: { page: number; pageSize: number }) {
    const q = db.selectFrom('review').where('subject_id', '=', userId).where('visible_from', '<=', nowIso())
    const [rows, agg] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
        .executeTakeFirst(),
    ])
    const count = Number(agg?.n ?? 0)
    return {
      data: await reviewsOut(rows, null),
      page: query.page,
      pageSize: query.pageSize,
      total: count,
      average: count ? Math.round(Number(agg?.avg ?? 0) * 100) / 100 : 0,
      count,
    }
  }

  async function reviews(caller: Caller, query: { userId?: number; page: number; pageSize: number }) {
    const userId = query.userId ?? caller.userId
    const now = nowIso()
    const q = db.selectFrom('review').where('subject_id', '=', userId).where('visible_from', '<=', now)
    const [rows, agg, written] = await Promise.all([
      q
        .selectAll()
        .orderBy('created_at', 'desc')
        .offset((query.page - 1) * query.pageSize)
        .limit(query.pageSize)
        .execute(),
      q
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.avg<number>('rating').as('avg')])
        .executeTakeFirst(),
      userId === caller.userId
        ? db
            .selectFrom('review')
            .selectAll()
            .where('author_id', '=', caller.userId)
            .where('visible_from', '>', now)
            .execute()
        : [],
    ])
    // Contracts the caller may still review.
    const open =
      userId === caller.userId
        ? await db
            .selectFrom('contract as c')
            .innerJoin('project as p', 'p.id', 'c.project_id')
            .select(['c.id', 'c.project_id', 'p.title', 'c.client_id', 'c.freelancer_id'])
            .where('c.status', '=', 'completed')
            .where((eb) =>
              eb.or([eb('c.client_id', '=', caller.userId), eb('c.freelancer_id', '=', caller.userId)]),
            )
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('review as r')
                    .select('r.id')
                    .whereRef('r.contract_id', '=', 'c.id')
                    .where('r.author_id', '=', caller.userId),
                ),
              ),
            )
            .execute()
        : []
    const users = await people(
      open.map((c) => (c.client_id === caller.userId ? c.freelancer_id : c.client_id)),
    )
    const count = Number(agg?.n ?? 0)
    return {
      data: await reviewsOut([...written, ...rows], caller),
      page: query.page,
      pageSize: query.pageSize,
      total: count,
      average: count ? Math.round(Number(agg?.avg ?? 0) * 100) / 100 : 0,
      count,
      toWrite: open.map((c) => {
        const other = c.client_id === caller.userId ? c.freelancer_id : c.client_id
        return {
          contractId: c.id,
          projectId: c.project_id,
          projectTitle: c.title,
          subject: users.get(other) ?? nobody(other),
        }
      }),
    }
  }

  return {
    create,
    update,
    remove,
    updateState,
    search,
    myProjects,
    detailsForFreelancer,
    detailsForClient,
    attachments,
    upload,
    removeAttachment,
    propose,
    reviseProposal,
    withdrawProposal,
    proposalRevisions,
    myProposals,
    clientProposals,
    accept,
    reject,
    myContracts,
    installmentAction,
    releaseInstallment,
    autoRelease,
    contractForPayment,
    fundInstallments,
    /** The payments module moves the money of a release (server/api/index.ts wires it). */
    setMoneyMover: (m: MoneyMover) => {
      mover = m
    },
    activities,
    createRoom,
    wishlist,
    savedAmong,
    addWish: (c: Caller, id: number) => follow('project_wishlist', c, id, true),
    removeWish: (c: Caller, id: number) => follow('project_wishlist', c, id, false),
    subscribe: (c: Caller, id: number) => follow('project_subscription', c, id, true),
    unsubscribe: (c: Caller, id: number) => follow('project_subscription', c, id, false),
    comments,
    addComment,
    homeSearch,
    writeReview,
    reviews,
    publicReviews,
    recomputeRating,
    awardReviewPoints,
    /** What waits on the caller across their projects, proposals and contracts (the dashboard). */
    workQueue: (c: Caller) => workQueue(c, { client: isClient(c), freelancer: isFreelancer(c) }),
    /** For seeds and benches: put an open project into the full-text index. */
    indexProject,
  }
}

export type ProjectsService = ReturnType<typeof createProjectsService>
