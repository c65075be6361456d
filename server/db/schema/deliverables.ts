import type { Generated } from 'kysely'

// The deliverables register of a contract (migration 0039, decision 318): append-only rows.
export type DeliverableRegisterTable = { contract_id: number; scheme: string; created_at: string }
export type DeliverableTable = {
  id: Generated<number>
  contract_id: number
  installment_id: number
  number: string
  title: string
  discipline: string
  position: number
  created_by: number
  created_at: string
}
export type TransmittalTable = {
  id: Generated<number>
  contract_id: number
  number: number
  sender_id: number
  recipient_id: number
  created_at: string
}
export type DeliverableIssueTable = {
  id: Generated<number>
  deliverable_id: number
  contract_id: number
  transmittal_id: number
  sequence: number
  revision: string
  status: string
  note: string
  issued_by: number
  issued_at: string
}
export type DeliverableIssueFileTable = { issue_id: number; file_id: number }
export type DeliverableResponseTable = {
  id: Generated<number>
  issue_id: number
  contract_id: number
  outcome: string
  comment: string
  responded_by: number
  responded_at: string
}

export interface DeliverablesTables {
  deliverable_register: DeliverableRegisterTable
  deliverable: DeliverableTable
  transmittal: TransmittalTable
  deliverable_issue: DeliverableIssueTable
  deliverable_issue_file: DeliverableIssueFileTable
  deliverable_response: DeliverableResponseTable
}
