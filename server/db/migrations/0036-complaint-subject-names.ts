import { sql } from 'kysely'
import type { Migration } from './helpers.ts'

// A ticket's subject no longer stores the other party's name (decision 271): a contract's or a
// chat's label keeps its project's title and the name is read with the ticket, so a person deleted
// later is named as deleted there too; a ticket about a person stores nothing. Tickets filed before
// stored "Title (Name)": their titles are read back from what the subject points at. Frozen
// (decision 100): plain statements of this date, the same on SQLite and PostgreSQL.
export const complaintSubjectNames: Migration = {
  async up(db) {
    await sql`update complaint set subject_label = coalesce((select p.title from contract c join project p on p.id = c.project_id where c.id = complaint.subject_id), subject_label) where subject_kind = 'contract'`.execute(
      db,
    )
    await sql`update complaint set subject_label = coalesce((select p.title from chat_room r join project p on p.id = r.project_id where r.id = complaint.subject_id), subject_label) where subject_kind = 'chat_room'`.execute(
      db,
    )
    await sql`update complaint set subject_label = '' where subject_kind = 'user'`.execute(db)
  },
}
