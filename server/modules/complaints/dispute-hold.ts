import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireAdmin } from './access.ts'
import { recordAdminAction } from './audit.ts'
import { tellAuthor, tellParty } from './notify.ts'
import { conflict, contractOfTicket, lock, ticketSubject, type ComplaintsDeps } from './tickets.ts'
import { detail } from './views.ts'

// A complaint about a contract, its project or its chat can become a dispute over money too
// (decision 313): support holds one of the contract's funded installments for it, and decides it
// like any other. A complaint about an installment holds its money as it is filed (decision 230).

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
