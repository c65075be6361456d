import type { Selectable } from 'kysely'
import type { DB } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import { Role } from '../../identity/permissions.ts'
import { ownProject } from '../access.ts'
import { offerOfProject, readProject } from '../reads.ts'
import { offerProject } from '../projects.ts'
import { problem } from '../schemas/fields.ts'
import { badRequest, nowIso, offsetOf, pageOf, spoken, type PageQuery } from '../shared.ts'
import { conflict, lockRow, notify, recordActivity, recordEffects, type Trx } from '../transition.ts'
import { nobody, type ProjectViews } from '../views.ts'
import type { InvitationInput, InvitationOut, InvitationState } from './contract.ts'

// Invitations (decision 335): the rules of inviting and of the one answer, each step in one
// transaction with its activity row and its notification written to the outbox.

type InvitationRow = Selectable<Database['project_invitation']>
type InvitationDeps = { db: DB; dialect: Dialect; views: Pick<ProjectViews, 'people'> }

/** The invitations as the API shows them, with their project's title and state and both people. */
async function shown(deps: InvitationDeps, rows: InvitationRow[]): Promise<InvitationOut[]> {
  if (!rows.length) return []
  const projects = await deps.db
    .selectFrom('project')
    .select(['id', 'title', 'status', 'visibility'])
    .where('id', 'in', [...new Set(rows.map((r) => r.project_id))])
    .execute()
  const byId = new Map(projects.map((p) => [p.id, p]))
  const people = await deps.views.people(rows.flatMap((r) => [r.client_id, r.freelancer_id]))
  return rows.flatMap((r) => {
    const p = byId.get(r.project_id)
    if (!p) return []
    return [
      {
        id: r.id,
        projectId: r.project_id,
        projectTitle: p.title,
        projectStatus: p.status as InvitationOut['projectStatus'],
        visibility: p.visibility as InvitationOut['visibility'],
        client: people.get(r.client_id) ?? nobody(r.client_id),
        freelancer: people.get(r.freelancer_id) ?? nobody(r.freelancer_id),
        message: r.message,
        status: r.status as InvitationState,
        declineReason: r.decline_reason,
        createdAt: r.created_at,
        decidedAt: r.decided_at,
      },
    ]
  })
}

const one = async (deps: InvitationDeps, row: InvitationRow) => (await shown(deps, [row]))[0]!

/**
 * An active freelancer the client may invite (or make a direct offer to, decision 342): not the
 * client themselves, not a client or company account. `words` name the refusals.
 */
export async function checkFreelancer(
  db: DB,
  caller: Caller,
  freelancerId: number,
  words = { self: 'selfInvite', notFreelancer: 'notAFreelancer' },
) {
  if (freelancerId === caller.userId) throw badRequest('freelancerId', problem(words.self))
  const user = await db
    .selectFrom('app_user')
    .select(['id', 'status'])
    .where('id', '=', freelancerId)
    .executeTakeFirst()
  if (!user || user.status !== 'Active') throw notFound('Freelancer')
  const role = await db
    .selectFrom('user_role')
    .select('role')
    .where('user_id', '=', freelancerId)
    .where('role', '=', Role.Freelancer)
    .executeTakeFirst()
  if (!role) throw badRequest('freelancerId', problem(words.notFreelancer))
}

const alreadyInvited = () =>
  new ApiError(409, 'Conflict', 'This freelancer is already invited to this project', {
    freelancerId: [problem('alreadyInvited')],
  })

async function invite(deps: InvitationDeps, caller: Caller, projectId: number, input: InvitationInput) {
  const { db, dialect } = deps
  const project = await ownProject(db, caller, projectId)
  if (project.status !== 'open')
    throw conflict(`The project is ${spoken(project.status)}; it takes no invitations`, project.status)
  if (await offerOfProject(db, projectId)) throw offerProject()
  await checkFreelancer(db, caller, input.freelancerId)
  let row: InvitationRow
  try {
    row = await db.transaction().execute(async (trx) => {
      const p = (await lockRow(trx, dialect, 'project', projectId))!
      if (p.status !== 'open')
        throw conflict(`The project is ${spoken(p.status)}; it takes no invitations`, p.status)
      const before = await trx
        .selectFrom('project_invitation')
        .select('id')
        .where('project_id', '=', projectId)
        .where('freelancer_id', '=', input.freelancerId)
        .executeTakeFirst()
      if (before) throw alreadyInvited()
      const created = await trx
        .insertInto('project_invitation')
        .values({
          project_id: projectId,
          freelancer_id: input.freelancerId,
          client_id: caller.userId,
          message: input.message,
          status: 'pending',
          decline_reason: null,
          created_at: nowIso(),
          decided_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await recordActivity(trx, projectId, caller.userId, 'invitation', created.id, 'create', p.status)
      await recordEffects(trx, [
        notify(
          [input.freelancerId],
          'proposalInvitation',
          projectId,
          'Invitation',
          { title: p.title },
          caller.userId,
        ),
      ])
      return created
    })
  } catch (error) {
    if (error instanceof ApiError) throw error
    // Two invitations at the same moment: the unique (project, freelancer) key let one in.
    throw alreadyInvited()
  }
  return one(deps, row)
}

/** The freelancer's own invitation (anyone else's answers 404, as an unknown one does). */
async function ownInvitation(executor: DB | Trx, caller: Caller, invitationId: number) {
  const row = await executor
    .selectFrom('project_invitation')
    .selectAll()
    .where('id', '=', invitationId)
    .executeTakeFirst()
  if (!row || row.freelancer_id !== caller.userId) throw notFound('Invitation')
  return row
}

/** The one answer: accepted (the project must still be open) or declined with a reason. */
async function decide(
  deps: InvitationDeps,
  caller: Caller,
  invitationId: number,
  answer: 'accepted' | 'declined',
  reason: string | null,
) {
  const { db, dialect } = deps
  await ownInvitation(db, caller, invitationId)
  const row = await db.transaction().execute(async (trx) => {
    let locked = trx.selectFrom('project_invitation').selectAll().where('id', '=', invitationId)
    if (dialect === 'postgres') locked = locked.forUpdate()
    const inv = (await locked.executeTakeFirst())!
    if (inv.status !== 'pending')
      throw conflict(`The invitation is already ${inv.status}; it is answered once`, inv.status)
    const p = (await readProject(trx, inv.project_id))!
    if (answer === 'accepted' && p.status !== 'open')
      throw conflict(`The project is ${spoken(p.status)}; it takes no proposals`, p.status)
    const decided = await trx
      .updateTable('project_invitation')
      .set({ status: answer, decline_reason: reason, decided_at: nowIso() })
      .where('id', '=', invitationId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst()
    if (!decided) throw conflict('The invitation changed meanwhile; reload and try again')
    const action = answer === 'accepted' ? 'accept' : 'decline'
    await recordActivity(trx, inv.project_id, caller.userId, 'invitation', inv.id, action, p.status)
    const kind = answer === 'accepted' ? 'proposalInvitationAccepted' : 'proposalInvitationDeclined'
    const params: Record<string, string> = reason ? { title: p.title, reason } : { title: p.title }
    await recordEffects(trx, [
      notify([inv.client_id], kind, inv.project_id, 'Invitation', params, caller.userId),
    ])
    return decided
  })
  return one(deps, row)
}

async function mine(deps: InvitationDeps, caller: Caller, query: PageQuery & { status?: InvitationState }) {
  const { db } = deps
  let q = db.selectFrom('project_invitation').where('freelancer_id', '=', caller.userId)
  if (query.status) q = q.where('status', '=', query.status)
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').offset(offsetOf(query)).limit(query.pageSize).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return pageOf(await shown(deps, rows), query, total?.n)
}

async function forProject(deps: InvitationDeps, caller: Caller, projectId: number) {
  const { db } = deps
  await ownProject(db, caller, projectId)
  const rows = await db
    .selectFrom('project_invitation')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute()
  return { data: await shown(deps, rows) }
}

export function createInvitations(deps: InvitationDeps) {
  return {
    invite: invite.bind(null, deps),
    accept: (caller: Caller, invitationId: number) => decide(deps, caller, invitationId, 'accepted', null),
    decline: (caller: Caller, invitationId: number, reason: string) =>
      decide(deps, caller, invitationId, 'declined', reason),
    mine: mine.bind(null, deps),
    forProject: forProject.bind(null, deps),
  }
}

export type Invitations = ReturnType<typeof createInvitations>
