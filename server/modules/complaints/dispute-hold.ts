import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireAdmin } from './access.ts'
import { recordAdminAction } from './audit.ts'
import { tellAuthor, tellParty } from './notify.ts'
import { conflict, lock, ticketSubject, type ComplaintsDeps } from './tickets.ts'
import { detail } from './views.ts'

// A complaint about a contract, its project or its chat can become a dispute over money too
// (decision 313): support holds one of the contract's funded installments for it, and decides it
// like any other. A complaint about an installment holds its money as it is filed (decision 230).

/** The contract a ticket's subject belongs to, when it is about one (a project's latest, a room's parties'). */
export async function contractOfTicket(
  db: Kysely<Database>,
  ticket: { subject_kind: string; subject_id: number | null },
) {
  const id = ticket.subject_id
  if (id === null) return null
  if (ticket.subject_kind === 'contract') return id
  const q = db.selectFrom('contract as c').select('c.id').orderBy('c.id', 'desc')
  const found =
    ticket.subject_kind === 'installment'
      ? await q
          .innerJoin('installment as i', 'i.contract_id', 'c.id')
          .where('i.id', '=', id)
          .executeTakeFirst()
      : ticket.subject_kind === 'project'
        ? await q.where('c.project_id', '=', id).executeTakeFirst()
        : ticket.subject_kind === 'chat_room'
          ? await q
              .innerJoin('chat_room as r', (j) =>
                j.onRef('r.project_id', '=', 'c.project_id').onRef('r.freelancer_id', '=', 'c.freelancer_id'),
              )
              .where('r.id', '=', id)
              .executeTakeFirst()
          : undefined
  return found?.id ?? null
}

/** Support holds an installment of the ticket's contract for the dispute: audited, both sides told. */
export async function holdMoney(deps: ComplaintsDeps, caller: Caller, id: number, installmentId: number) {
  const { db, dialect, money, publicUrl } = deps
  const adminId = requireAdmin(caller)
  const ticket = await ticketSubject(db, id)
  const contractId = money ? await contractOfTicket(db, ticket) : null
  if (!money || contractId === null) throw notFound('Contract')
  if (!(await money.holdable(contractId)).some((i) => i.installmentId === installmentId))
    throw conflict('Nothing of this installment can be held: it is released, refunded or disputed', 'held')
  await db.transaction().execute(async (trx) => {
    const row = (await lock(trx, dialect, id))!
    if (row.status === 'closed') throw conflict('The ticket is closed', row.status)
    if (!(await money.holdForComplaint(trx, installmentId, id, row.title)))
      throw conflict('Nothing of this installment can be held: it is released, refunded or disputed', 'held')
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'hold_money',
      objectType: 'complaint',
      objectId: id,
      params: { installmentId },
    })
    await tellAuthor(trx, publicUrl, row, 'disputes:notify.moneyHeld')
    await tellParty(trx, row, 'disputes:notify.disputeOpened')
  })
  return detail(deps, id, 'support')
}
