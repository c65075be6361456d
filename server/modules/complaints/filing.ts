import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { tell, tellAuthor } from './notify.ts'
import { complaintLimits, partyKinds, type NewComplaint } from './rules.ts'
import { subjectFor } from './subjects.ts'
import { addMessage, appAuthor, openTicket, type ComplaintsDeps, type Files, type Trx } from './tickets.ts'
import { detail } from './views.ts'

// Filing a ticket: a signed-in user's complaint about something they are part of, and a message
// sent through /contact-us.

/** A user's complaint, with its first message and files; a funded installment's money is held meanwhile. */
export async function fileComplaint(
  deps: ComplaintsDeps,
  caller: Caller,
  input: NewComplaint,
  upload?: Files,
) {
  const { db, money, publicUrl } = deps
  const subject = await subjectFor(db, caller.userId, input.subject)
  const id = await db.transaction().execute(async (trx) => {
    const row = await openTicket(trx, {
      ...(await appAuthor(trx, caller.userId)),
      subject_kind: subject.kind,
      subject_id: subject.id,
      subject_label: subject.stored,
      other_party_id: subject.otherPartyId,
      title: input.title,
    })
    await addMessage(trx, row.id, caller.userId, false, input.description, upload)
    await tellAuthor(trx, publicUrl, row, 'created')
    // A complaint about a funded installment holds its money until an admin decides (decision 230).
    const held =
      subject.kind === 'installment' && money
        ? await money.holdForComplaint(trx, subject.id!, row.id, input.title)
        : false
    // The other party it shows itself to is told, in the bell, that it concerns them (decision 232).
    if (subject.otherPartyId && partyKinds.includes(subject.kind))
      await tell(
        trx,
        subject.otherPartyId,
        row.id,
        held ? 'disputes:notify.disputeOpened' : 'disputes:notify.partyNamed',
        { title: row.title },
      )
    return row.id
  })
  return detail(deps, id, 'author', caller.userId)
}

/**
 * A message sent through /contact-us becomes a ticket about the platform (decision 215), in the
 * transaction that stores it: linked to the sender's account when they were signed in, else
 * reached by the address they gave.
 */
export async function ticketFromContact(
  trx: Trx,
  contact: {
    id: number
    name: string
    email: string
    subject: string
    message: string
    language: Locale
    userId: number | null
  },
) {
  const row = await openTicket(trx, {
    author_id: contact.userId,
    email: contact.email,
    name: contact.name,
    language: contact.language,
    source: 'contact',
    contact_message_id: contact.id,
    subject_kind: 'platform',
    subject_id: null,
    subject_label: 'Workneer',
    other_party_id: null,
    title: contact.subject.slice(0, complaintLimits.title),
  })
  const now = row.created_at
  await trx
    .insertInto('complaint_message')
    .values({
      complaint_id: row.id,
      author_id: contact.userId,
      from_support: 0,
      body: contact.message,
      created_at: now,
    })
    .execute()
  return row.id
}
