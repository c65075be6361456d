import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// Every dispute is a ticket in support's queue with a date to decide by (decision 313). A refund
// request the client disputed used to hold its money with no ticket, so support had no way to
// decide it: each such dispute gets its ticket now (the client's reason as its first message, the
// freelancer's decline as theirs), due at once since it has already waited. Frozen (decision 100):
// plain statements of this date, the same on SQLite and PostgreSQL.
export const disputeTickets: Migration = {
  async up(db) {
    await db.schema.alterTable('refund_request').addColumn('decide_by', 'text').execute()
    await sql`update refund_request set decide_by = updated_at where status = 'disputed'`.execute(db)
    await sql`insert into complaint (author_id, email, name, language, source, contact_message_id, subject_kind, subject_id, subject_label, other_party_id, title, status, assignee_id, created_at, updated_at)
      select r.client_id, u.email, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), u.language, 'app', null, 'installment', r.installment_id, p.title || ': ' || i.title, r.freelancer_id, substr(r.reason, 1, 150), 'open', null, r.updated_at, r.updated_at
      from refund_request r join app_user u on u.id = r.client_id join project p on p.id = r.project_id join installment i on i.id = r.installment_id
      where r.status = 'disputed' and r.complaint_id is null order by r.id`.execute(db)
    await sql`update refund_request set complaint_id = (select max(c.id) from complaint c where c.subject_kind = 'installment' and c.subject_id = refund_request.installment_id and c.author_id = refund_request.client_id) where status = 'disputed' and complaint_id is null`.execute(
      db,
    )
    await sql`insert into complaint_message (complaint_id, author_id, from_support, body, created_at)
      select r.complaint_id, r.client_id, 0, r.reason, r.updated_at from refund_request r
      where r.status = 'disputed' and not exists (select 1 from complaint_message m where m.complaint_id = r.complaint_id)`.execute(
      db,
    )
    await sql`insert into complaint_message (complaint_id, author_id, from_support, body, created_at)
      select r.complaint_id, r.freelancer_id, 0, r.decline_reason, r.updated_at from refund_request r
      where r.status = 'disputed' and r.decline_reason is not null and (select count(*) from complaint_message m where m.complaint_id = r.complaint_id) = 1`.execute(
      db,
    )
  },
}
