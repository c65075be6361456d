import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound, unauthorized } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'
import { readContractOfProject, readProject } from './reads.ts'
import type { ProjectRow } from './shared.ts'

// Who may see or act on a project. Unknown projects, drafts of others and closed projects of others
// answer 404; an open project of another client answers 403 to an owner's action. A project's
// visibility (decision 335) comes first: an invite-only project is 404 to all but its client, the
// freelancers it invited, and admins; a signed-in-only one asks a visitor to sign in (401).

type Seen = Pick<ProjectRow, 'id' | 'client_id' | 'visibility'>

/** Whether a freelancer was invited to the project (and did not decline) or has proposed on it. */
export async function isInvited(db: DB, projectId: number, userId: number) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('project_invitation')
            .select('id')
            .where('project_id', '=', projectId)
            .where('freelancer_id', '=', userId)
            .where('status', '!=', 'declined'),
        )
        .as('invited'),
      eb
        .exists(
          eb
            .selectFrom('proposal')
            .select('id')
            .where('project_id', '=', projectId)
            .where('freelancer_id', '=', userId),
        )
        .as('proposed'),
    ])
    .executeTakeFirst()
  return !!Number(row?.invited) || !!Number(row?.proposed)
}

/** Whether the caller may see the project at all, whatever its state. */
export async function maySee(db: DB, caller: Caller | null, row: Seen) {
  if (row.visibility === 'public') return true
  if (!caller) return false
  if (row.visibility === 'signed_in') return true
  if (row.client_id === caller.userId || caller.roles.includes(Role.SuperAdmin)) return true
  return isInvited(db, row.id, caller.userId)
}

/** Refuses a caller the project's visibility leaves out: 401 for a visitor of a signed-in-only project, else 404. */
export async function mustSee(db: DB, caller: Caller | null, row: Seen) {
  if (await maySee(db, caller, row)) return
  if (!caller && row.visibility === 'signed_in') throw unauthorized()
  throw notFound('Project')
}

/** An open project that others may know of: refusing them an owner's action is then 403, not 404. */
export const knownToOthers = (row: Pick<ProjectRow, 'status' | 'visibility'>) =>
  row.status === 'open' && row.visibility !== 'invited'

/** The owner's project, or 404 (drafts, non-open and invite-only projects of others are not acknowledged) / 403 (an open project of another client). */
export async function ownProject(db: DB, caller: Caller, id: number) {
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  if (row.client_id !== caller.userId) throw knownToOthers(row) ? forbidden() : notFound('Project')
  return row
}

/** Who takes part in a project: its client and, once hired, its freelancer. */
export async function participant(db: DB, caller: Caller, id: number) {
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  const contract = await readContractOfProject(db, id)
  if (row.client_id === caller.userId) return { row, role: 'client' as const, contract }
  if (contract && contract.freelancer_id === caller.userId)
    return { row, role: 'freelancer' as const, contract }
  return { row, role: null, contract }
}

/** A project the caller may see: every one but the drafts of others and those its visibility hides. */
export async function visibleProject(db: DB, caller: Caller | null, id: number) {
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  if (row.status === 'draft' && row.client_id !== caller?.userId) throw notFound('Project')
  await mustSee(db, caller, row)
  return row
}
