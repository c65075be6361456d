import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireAdmin, viewerOf } from './access.ts'
import { recordAdminAction } from './audit.ts'
import { authorReplyTransition, type ComplaintState } from './machine.ts'
import { superAdmins, tell, tellAuthor, tellParty } from './notify.ts'
import { addMessage, conflict, lock, setState, type ComplaintsDeps, type Files } from './tickets.ts'
import { detail } from './views.ts'

// The messages on a ticket: its author's or its other party's, and support's.

/** The author's or the other party's reply. The author's moves the ticket (decision 211); the other party's tells the author and support (decision 232). */
export async function userReply(
  deps: ComplaintsDeps,
  caller: Caller,
  id: number,
  body: string,
  upload?: Files,
) {
  const { db, dialect, publicUrl } = deps
  const view = await db.transaction().execute(async (trx) => {
    const ticket = await lock(trx, dialect, id)
    const view = await viewerOf(trx, caller.userId, id)
    const state = ticket!.status as ComplaintState
    if (state === 'closed') throw conflict('The ticket is closed; file a new complaint', state)
    await addMessage(trx, id, caller.userId, false, body, upload)
    const step = view === 'author' ? authorReplyTransition(state) : undefined
    if (step) await setState(trx, id, state, step.to)
    if (view === 'party') await tellAuthor(trx, publicUrl, ticket!, 'disputes:notify.partyReplied', {}, body)
    // The agent who took the ticket hears of the reply; unassigned, every SuperAdmin does.
    const agents = ticket!.assignee_id
      ? [ticket!.assignee_id]
      : view === 'party'
        ? await superAdmins(trx)
        : []
    for (const agent of agents) await tell(trx, agent, id, 'userReplied', { title: ticket!.title })
    return view
  })
  return detail(deps, id, view, caller.userId)
}

/** Support's reply, told to the author and audited. */
export async function supportReply(
  deps: ComplaintsDeps,
  caller: Caller,
  id: number,
  body: string,
  upload?: Files,
) {
  const { db, dialect, publicUrl } = deps
  const adminId = requireAdmin(caller)
  await db.transaction().execute(async (trx) => {
    const ticket = await lock(trx, dialect, id)
    if (!ticket) throw notFound('Complaint')
    if (ticket.status === 'closed') throw conflict('The ticket is closed', ticket.status)
    await addMessage(trx, id, adminId, true, body, upload)
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'reply',
      objectType: 'complaint',
      objectId: id,
    })
    await tellAuthor(trx, publicUrl, ticket, 'reply', {}, body)
    await tellParty(trx, ticket, 'disputes:notify.supportWrote')
  })
  return detail(deps, id, 'support')
}
