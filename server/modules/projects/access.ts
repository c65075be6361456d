import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { forbidden, notFound } from '#server/api/errors.ts'
import { readContractOfProject, readProject } from './reads.ts'
import { Role } from '../identity/permissions.ts'

// Who may see or act on a project. Unknown projects, drafts of others and closed projects of others
// answer 404; an open project of another client answers 403 to an owner's action.

/** The owner's project, or 404 (drafts and non-open projects of others are not acknowledged) / 403 (an open project of another client). */
export async function ownProject(db: DB, caller: Caller, id: number) {
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  if (row.client_id !== caller.userId) throw row.status === 'open' ? forbidden() : notFound('Project')
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

/** States only the project's client (and admins) may see: not yet public (decision 339). */
export const privateStates: readonly string[] = ['draft', 'in_review', 'returned']

/** A project anyone may see: every one but the drafts of others, and others' projects waiting for review or returned from it. */
export async function visibleProject(db: DB, caller: Caller | null, id: number) {
  const row = await readProject(db, id)
  if (!row) throw notFound('Project')
  if (
    privateStates.includes(row.status) &&
    row.client_id !== caller?.userId &&
    !caller?.roles.includes(Role.SuperAdmin)
  )
    throw notFound('Project')
  return row
}
