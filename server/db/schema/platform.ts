import type { Generated } from 'kysely'

// What every module shares: the outbox, stored files, secrets the server makes once, seed markers.
export type AppSecretTable = { name: string; value: string; created_at: string }
export type OutboxTable = {
  id: Generated<number>
  topic: string
  payload: string
  status: Generated<'pending' | 'done' | 'dead'>
  attempts: Generated<number>
  run_after: string
  locked_until: string | null
  last_error: string | null
  created_at: string
  done_at: string | null
}

export type StoredFileTable = {
  id: Generated<number>
  owner_id: number | null
  purpose: string
  original_name: string
  mime: string
  type: string
  attachment_type: number
  size: number
  sha256: string
  storage_key: string
  created_at: string
}

/** A seed that a start loads once (the demo marketplace): begun at `started_at`, whole once `completed_at` is set. */
export type SeedMarkerTable = {
  name: string
  attempts: Generated<number>
  started_at: string
  completed_at: string | null
}

export interface PlatformTables {
  app_secret: AppSecretTable
  outbox: OutboxTable
  stored_file: StoredFileTable
  seed_marker: SeedMarkerTable
}
