import type { Generated } from 'kysely'

// Saved searches and job alerts (issue 41 item 1, migration 0045, decision 328).
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
  unsubscribe_seq: Generated<number>
  created_at: string
  updated_at: string
}
export type SavedSearchKeyTable = { kind: string; key: string; saved_search_id: number }
export type SavedSearchMatchTable = {
  saved_search_id: number
  target_id: number
  matched_at: string
  digested_at: string | null
}

export interface AlertsTables {
  saved_search: SavedSearchTable
  saved_search_key: SavedSearchKeyTable
  saved_search_match: SavedSearchMatchTable
}
