import type { Generated } from 'kysely'

// Weekly timesheets of hourly contracts (migration 0043, decision 324). Hours are quarter hours.
export type TimesheetWeekTable = {
  id: Generated<number>
  contract_id: number
  project_id: number
  week_start: string
  status: string
  quarters: Generated<number>
  submitted_at: string | null
  decided_at: string | null
  decided_by: number | null
  dispute_reason: string | null
  amount_minor: number | null
  installment_id: number | null
  created_at: string
  updated_at: string
}
export type TimesheetEntryTable = {
  id: Generated<number>
  week_id: number
  work_date: string
  quarters: number
  description: string
  deliverable_id: number | null
  created_at: string
  updated_at: string
}

export interface TimesheetsTables {
  timesheet_week: TimesheetWeekTable
  timesheet_entry: TimesheetEntryTable
}
