import type { Generated } from 'kysely'

// Change orders on a contract (issue 40 item 2, migration 0040, decision 319). A change order's
// state is proposed, then once accepted, rejected or withdrawn; its effects keep what they replaced.
export type ChangeOrderTable = {
  id: Generated<number>
  contract_id: number
  project_id: number
  number: number
  proposer_id: number
  description: string
  reason: string
  status: string
  currency: string
  value_before_minor: number | null
  value_after_minor: number | null
  decided_by: number | null
  decided_at: string | null
  rejection_reason: string | null
  created_at: string
  updated_at: string
}
export type ChangeOrderEffectTable = {
  id: Generated<number>
  change_order_id: number
  position: number
  kind: string
  installment_id: number | null
  title: string | null
  amount_minor: number | null
  due_date: string | null
  old_title: string | null
  old_amount_minor: number | null
  old_due_date: string | null
  refunded_minor: number | null
}

export interface ChangeOrdersTables {
  change_order: ChangeOrderTable
  change_order_effect: ChangeOrderEffectTable
}
