import type { Generated } from 'kysely'

// Hiring with Workneer's help (issue 41 item 5, migration 0055, decision 338).
export type HiringRequestState = 'open' | 'claimed' | 'proposed' | 'done' | 'cancelled'
export type HiringRequestTable = {
  id: Generated<number>
  client_id: number
  project_id: number | null
  need: string
  /** One amount when both are equal, else a range; minor units of `currency`. */
  budget_min_minor: number
  budget_max_minor: number
  currency: string
  /** A day, YYYY-MM-DD. */
  deadline: string
  state: HiringRequestState
  assignee_id: number | null
  created_at: string
  updated_at: string
}
export type HiringPickTable = {
  request_id: number
  freelancer_id: number
  position: number
  note: string
  created_at: string
}

export interface HiringTables {
  hiring_request: HiringRequestTable
  hiring_pick: HiringPickTable
}
