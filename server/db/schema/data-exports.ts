import type { Generated } from 'kysely'

// A person's exports of their own data (issue 42 item 2, migration 0048, decision 331).
export type DataExportStatus = 'preparing' | 'ready' | 'expired' | 'failed'
export type DataExportTable = {
  id: Generated<number>
  user_id: number
  status: DataExportStatus
  /** sha256 of the download link's token (base64url), set when the archive is ready. */
  token_hash: string | null
  /** The archive's key in the exports' storage, until the sweep removes it. */
  archive_key: string | null
  archive_size: number | null
  requested_at: string
  ready_at: string | null
  expires_at: string | null
  downloaded_at: string | null
}

export interface DataExportTables {
  data_export: DataExportTable
}
