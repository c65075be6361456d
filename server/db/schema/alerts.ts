import type { Generated } from 'kysely'

// Saved searches and job alerts (issue 41 item 1, migrations 0045 and 0058, decisions 328 and 343).
export type SavedSearchTable = {
  id: Generated<number>
  owner_id: number
  /** project: a freelancer's Find Project search; freelancer: a client's Find Freelancers search. */
  kind: string
  name: string
  /** The search's filters as JSON (alerts/schemas.ts `SavedFilters`). */
  filters: string
  /** daily | weekly | never: how often the email digest goes. */
  frequency: string
  active: Generated<number>
  from_profile: Generated<number>
  notified_at: string | null
  digest_due_at: string
  digest_claimed_until: string | null
  /** The digest lists the matches published after this (null: after created_at); migration 0058. */
  digest_since: string | null
  unsubscribe_seq: Generated<number>
  created_at: string
  updated_at: string
}
export type SavedSearchKeyTable = { kind: string; key: string; saved_search_id: number }
/** One published target (a project, or a freelancer who newly fits) that matched, with its facets as JSON (decision 343). */
export type AlertTargetTable = {
  id: Generated<number>
  kind: string
  target_id: number
  owner_id: number
  facets: string
  published_at: string
}
export type AlertTargetKeyTable = { kind: string; key: string; published_at: string; alert_target_id: number }

export interface AlertsTables {
  saved_search: SavedSearchTable
  saved_search_key: SavedSearchKeyTable
  alert_target: AlertTargetTable
  alert_target_key: AlertTargetKeyTable
}
