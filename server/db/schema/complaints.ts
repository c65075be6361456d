import type { Generated } from 'kysely'

// Complaints and support tickets, the admin audit trail (server/modules/complaints, migration 0028).
export type ComplaintTable = {
  id: Generated<number>
  author_id: number | null
  email: string
  name: string
  language: Generated<string>
  source: 'app' | 'contact'
  contact_message_id: number | null
  subject_kind: string
  subject_id: number | null
  subject_label: string
  other_party_id: number | null
  title: string
  status: string
  assignee_id: number | null
  created_at: string
  updated_at: string
}
export type ComplaintMessageTable = {
  id: Generated<number>
  complaint_id: number
  author_id: number | null
  from_support: Generated<number>
  body: string
  created_at: string
}
export type ComplaintAttachmentTable = { message_id: number; file_id: number }
export type AdminAuditTable = {
  id: Generated<number>
  actor_id: number
  action: string
  object_type: string
  object_id: number | null
  from_state: string | null
  to_state: string | null
  reason: string | null
  /** The row's facts as JSON (amounts, counts, ids), worded by each reader's screen; null before migration 0039. */
  params: string | null
  at: string
}

export interface ComplaintsTables {
  complaint: ComplaintTable
  complaint_message: ComplaintMessageTable
  complaint_attachment: ComplaintAttachmentTable
  admin_audit: AdminAuditTable
}
