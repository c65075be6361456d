import type { DB } from '#server/db/database.ts'
import type { ProjectVisibility } from './rules.ts'
import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import { displayName } from '../identity/display-name.ts'
import type { ContractState, InstallmentState, ProjectState, ProposalState } from './machines.ts'
import {
  activityRows,
  filesOfInstallments,
  filesOfProposals,
  installmentRows,
  marksOf,
  namesOf,
  projectTitleRows,
  proposerProfiles,
  readProjectFiles,
  skillsOfProjects,
  usersByIds,
  type ProjectFileRow,
} from './reads.ts'
import { parsePlan, type ContractRow, type ProjectRow, type ProposalRow } from './shared.ts'
import { hourlyProgress } from './timesheets/open-weeks.ts'

// How the API shows projects, proposals, contracts and a project's history: rows in, answers out,
// with the people, names and files they mention read alongside.

export type Person = { id: number; name: string; imageUrl: string | null }
/** Someone whose account is gone: shown without a name. */
export const nobody = (id: number): Person => ({ id, name: '', imageUrl: null })
const excerpt = (text: string) => (text.length > 280 ? `${text.slice(0, 277).trimEnd()}…` : text)

type ViewDeps = { db: DB; files: Pick<FileService, 'downloadUrl'> }

/** The people a page shows, by id, with their display names and pictures. */
async function people({ db, files }: ViewDeps, ids: number[]) {
  const unique = [...new Set(ids)].filter((v) => v != null)
  if (!unique.length) return new Map<number, Person>()
  const rows = await usersByIds(db, unique)
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

/** Project cards: what lists (Find Project, My Projects, the wishlist) show of each project. */
async function summaries(deps: ViewDeps, rows: ProjectRow[], locale: Locale) {
  const { db } = deps
  if (!rows.length) return []
  const [skills, categories, subcategories, clients] = await Promise.all([
    skillsOfProjects(
      db,
      rows.map((r) => r.id),
      locale,
    ),
    namesOf(
      db,
      'category',
      rows.flatMap((r) => r.category_id ?? []),
      locale,
    ),
    namesOf(
      db,
      'subcategory',
      rows.flatMap((r) => r.subcategory_id ?? []),
      locale,
    ),
    people(
      deps,
      rows.map((r) => r.client_id),
    ),
  ])
  const named = (of: ReadonlyMap<number, string>, id: number | null) =>
    id && of.has(id) ? { id, name: of.get(id)! } : null
  const skillsOf = Map.groupBy(skills, (s) => s.project_id)
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    excerpt: excerpt(r.description),
    status: r.status as ProjectState,
    category: named(categories, r.category_id),
    subcategory: named(subcategories, r.subcategory_id),
    skills: (skillsOf.get(r.id) ?? []).map((s) => ({ id: s.id, name: s.name as string })),
    budgetType: r.budget_type as 'fixed' | 'hourly',
    budgetMinor: r.budget_minor,
    budgetMinMinor: r.budget_min_minor,
    hoursPerWeek: r.hours_per_week,
    currency: r.currency,
    durationDays: r.duration_days,
    deadline: r.deadline,
    experienceLevel: r.experience_level,
    remote: r.remote === 1,
    location: r.location,
    country: r.country,
    visibility: r.visibility as ProjectVisibility,
    proposalCount: r.proposal_count,
    createdAt: r.created_at,
    publishedAt: r.published_at,
    client: clients.get(r.client_id) ?? nobody(r.client_id),
  }))
}

/** A file of a project as the API shows it. */
const fileOut = (files: ViewDeps['files'], f: ProjectFileRow) => ({
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
const projectAttachments = async ({ db, files }: ViewDeps, projectId: number) =>
  (await readProjectFiles(db, projectId))
    .filter((f) => f.proposal_id === null && f.installment_id === null)
    .map((f) => fileOut(files, f))

/** A project's page: its card, description, plan and files, and whether the reader saved or follows it. */
async function details(deps: ViewDeps, row: ProjectRow, caller: Caller | null, locale: Locale) {
  const [[summary], attachments, marks] = await Promise.all([
    summaries(deps, [row], locale),
    projectAttachments(deps, row.id),
    caller ? marksOf(deps.db, caller.userId, row.id) : null,
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

async function proposals(deps: ViewDeps, rows: ProposalRow[]) {
  const { db } = deps
  if (!rows.length) return []
  const [projects, users, profiles, fileRows] = await Promise.all([
    projectTitleRows(db, [...new Set(rows.map((r) => r.project_id))]),
    people(
      deps,
      rows.map((r) => r.freelancer_id),
    ),
    proposerProfiles(
      db,
      rows.map((r) => r.freelancer_id),
    ),
    filesOfProposals(
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
      weeklyHours: r.weekly_hours,
      installments: parsePlan(r.installment_plan),
      revision: r.revision,
      rejectReason: r.reject_reason,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      decidedAt: r.decided_at,
      attachments: (filesOf.get(r.id) ?? []).map((f) => fileOut(deps.files, f)),
    }
  })
}

async function contracts(deps: ViewDeps, rows: ContractRow[]) {
  const { db } = deps
  if (!rows.length) return []
  const ids = rows.map((r) => r.id)
  const [projects, users, installments, fileRows, hourly] = await Promise.all([
    projectTitleRows(db, [...new Set(rows.map((r) => r.project_id))]),
    people(
      deps,
      rows.flatMap((r) => [r.client_id, r.freelancer_id]),
    ),
    installmentRows(db, ids),
    filesOfInstallments(db, ids),
    hourlyProgress(
      db,
      rows.filter((r) => r.billing === 'hourly').map((r) => r.id),
    ),
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
    billing: r.billing as 'fixed' | 'hourly',
    hourlyRateMinor: r.hourly_rate_minor,
    weeklyLimitHours: r.weekly_limit_hours,
    hourly: hourly.get(r.id) ?? null,
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
      files: (filesOf.get(i.id) ?? []).map((f) => fileOut(deps.files, f)),
      deliverables: Number(i.deliverables ?? 0),
    })),
  }))
}

/** A proposal as the API shows it, read again after a change. */
const proposal = async (deps: ViewDeps, id: number) =>
  (
    await proposals(deps, [
      await deps.db.selectFrom('proposal').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    ])
  )[0]

/** A contract as the API shows it, read again after a change. */
const contract = async (deps: ViewDeps, id: number) =>
  (
    await contracts(deps, [
      await deps.db.selectFrom('contract').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    ])
  )[0]

/** The amount an activity row names (a refund asked), from its facts; the screen words it as money. */
function activityAmount(params: string | null) {
  const p = params ? (JSON.parse(params) as { amountMinor?: number; currency?: string }) : {}
  return p.amountMinor !== undefined && p.currency ? { minor: p.amountMinor, currency: p.currency } : null
}

/** A page of the project's history, newest first, and how many entries it has in all. */
async function activityPage(deps: ViewDeps, projectId: number, offset: number, limit: number) {
  const { db } = deps
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
  const users = await people(
    deps,
    rows.map((r) => r.actor_id ?? 0),
  )
  const data = rows.map((r) => ({
    id: r.id,
    entity: r.entity,
    entityId: r.entity_id,
    action: r.action,
    fromState: r.from_state,
    toState: r.to_state,
    note: r.note,
    amount: activityAmount(r.params),
    actor: r.actor_id ? (users.get(r.actor_id) ?? null) : null,
    createdAt: r.created_at,
  }))
  return { data, total }
}

export function createProjectViews(deps: ViewDeps) {
  return {
    people: (ids: number[]) => people(deps, ids),
    summaries: (rows: ProjectRow[], locale: Locale) => summaries(deps, rows, locale),
    projectAttachments: (projectId: number) => projectAttachments(deps, projectId),
    details: (row: ProjectRow, caller: Caller | null, locale: Locale) => details(deps, row, caller, locale),
    proposals: (rows: ProposalRow[]) => proposals(deps, rows),
    contracts: (rows: ContractRow[]) => contracts(deps, rows),
    proposal: (id: number) => proposal(deps, id),
    contract: (id: number) => contract(deps, id),
    activityPage: (projectId: number, offset: number, limit: number) =>
      activityPage(deps, projectId, offset, limit),
  }
}

export type ProjectViews = ReturnType<typeof createProjectViews>
