import { tell, tellAuthor } from './notify.ts'
import { complaintLimits } from './rules.ts'
import { addMessage, appAuthor, openTicket, type Trx } from './tickets.ts'

// Every dispute is a ticket in support's queue (decision 313). A client who disputes a declined or
// unanswered refund request files it without writing one: the ticket is about the installment,
// the client's reason is its first message and the freelancer's decline their answer, so support
// reads both sides' statements where it decides.

export interface DisputedRequest {
  client_id: number
  freelancer_id: number
  project_id: number
  installment_id: number
  reason: string
  decline_reason: string | null
}

/** Files the dispute's ticket in the dispute's transaction and tells both sides; answers its id. */
export async function fileDisputeTicket(trx: Trx, publicUrl: string, r: DisputedRequest) {
  const where = await trx
    .selectFrom('installment as i')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .innerJoin('project as p', 'p.id', 'c.project_id')
    .select(['p.title as project', 'i.title as installment'])
    .where('i.id', '=', r.installment_id)
    .executeTakeFirst()
  const row = await openTicket(trx, {
    ...(await appAuthor(trx, r.client_id)),
    subject_kind: 'installment',
    subject_id: r.installment_id,
    subject_label: where ? `${where.project}: ${where.installment}` : '',
    other_party_id: r.freelancer_id,
    title: r.reason.replace(/\s+/g, ' ').trim().slice(0, complaintLimits.title),
  })
  await addMessage(trx, row.id, r.client_id, false, r.reason)
  if (r.decline_reason) await addMessage(trx, row.id, r.freelancer_id, false, r.decline_reason)
  await tellAuthor(trx, publicUrl, row, 'created')
  await tell(trx, r.freelancer_id, row.id, 'disputes:notify.disputeOpened', { title: row.title })
  return row.id
}
