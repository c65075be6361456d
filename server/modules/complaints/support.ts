import type { z } from 'zod'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireAdmin } from './access.ts'
import {
  AUDIT_PAGE,
  auditFacets,
  countAdminActions,
  listAdminActions,
  recordAdminAction,
  type AdminActionName,
} from './audit.ts'
import type { auditQuery } from './contract.ts'
import { supportTransition, type ComplaintState } from './machine.ts'
import { tellAuthor, tellParty } from './notify.ts'
import { conflict, lock, setState, type ComplaintsDeps } from './tickets.ts'
import { detail } from './views.ts'

// Support handling a ticket: reading it, taking it, moving it through its states with a reason,
// and the audit trail of what admins did.

/** A ticket as support reads it. */
export async function supportTicket(deps: ComplaintsDeps, caller: Caller, id: number) {
  requireAdmin(caller)
  const row = await deps.db.selectFrom('complaint').select('id').where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Complaint')
  return detail(deps, id, 'support')
}

/** The admin takes the ticket (audited). */
export async function assignTicket(deps: ComplaintsDeps, caller: Caller, id: number) {
  const adminId = requireAdmin(caller)
  await deps.db.transaction().execute(async (trx) => {
    const ticket = await lock(trx, deps.dialect, id)
    if (!ticket) throw notFound('Complaint')
    if (ticket.assignee_id === adminId) return
    await trx
      .updateTable('complaint')
      .set({ assignee_id: adminId, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute()
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'assign',
      objectType: 'complaint',
      objectId: id,
    })
  })
  return detail(deps, id, 'support')
}

/** The admin moves the ticket to `to` with a reason: the machine decides, the audit records it, the author is told. */
export async function changeTicketState(
  deps: ComplaintsDeps,
  caller: Caller,
  id: number,
  to: ComplaintState,
  reason: string,
) {
  const adminId = requireAdmin(caller)
  await deps.db.transaction().execute(async (trx) => {
    const ticket = await lock(trx, deps.dialect, id)
    if (!ticket) throw notFound('Complaint')
    const from = ticket.status as ComplaintState
    const step = supportTransition(from, to)
    if (!step)
      throw conflict(
        `The ticket is ${from.replaceAll('_', ' ')}; it cannot become ${to.replaceAll('_', ' ')}`,
        from,
      )
    await setState(trx, id, from, to)
    await recordAdminAction(trx, {
      actorId: adminId,
      action: step.action as AdminActionName,
      objectType: 'complaint',
      objectId: id,
      fromState: from,
      toState: to,
      reason,
    })
    await tellAuthor(trx, deps.publicUrl, ticket, `state.${to}`, { reason })
    await tellParty(trx, ticket, 'disputes:notify.supportMoved', { reason })
  })
  return detail(deps, id, 'support')
}

/** The admins' audit trail, a page at a time, with its filters' choices. */
export async function auditTrail(deps: ComplaintsDeps, caller: Caller, query: z.output<typeof auditQuery>) {
  requireAdmin(caller)
  return {
    data: await listAdminActions(deps.db, query),
    page: query.page,
    pageSize: AUDIT_PAGE,
    total: await countAdminActions(deps.db, query),
    facets: await auditFacets(deps.db),
  }
}
