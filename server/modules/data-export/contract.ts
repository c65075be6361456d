import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'

// A person's export of their own data (issue 42 item 2, decision 331): ask for it, see its state,
// download the archive. Every call is the caller's own; nobody else's export is ever named.
const tag = 'Identity'

/** What the account settings show: none, preparing, ready until a date, or expired (and when a new one may be asked). */
export const dataExportState = z.object({
  state: z.enum(['none', 'preparing', 'ready', 'expired', 'failed']),
  requestedAt: z.string().nullable(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** When the caller may ask for a new export (one a day); null: now. */
  nextRequestAt: z.string().nullable(),
})
export type DataExportState = z.output<typeof dataExportState>

/** The download link's token: 43 base64url characters (32 random bytes). */
export const dataExportDownloadQuery = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of the link in the mail')
    .optional(),
})

export const dataExportContract = {
  requestDataExport: endpoint({
    method: 'POST',
    path: 'identity/data-export',
    summary:
      'Ask for an archive of everything Workneer holds about the caller, mailed as a link when ready (409 `export_in_progress` while one is prepared; 429 `export_rate_limited`, with Retry-After, within a day of the last one)',
    tag,
    access: 'user',
    response: dataExportState,
  }),
  dataExport: endpoint({
    method: 'GET',
    path: 'identity/data-export',
    summary: "The state of the caller's latest export of their data",
    tag,
    access: 'user',
    response: dataExportState,
  }),
  downloadDataExport: endpoint({
    method: 'GET',
    path: 'identity/data-export/download',
    summary:
      "The caller's ready archive (a ZIP of JSON, CSV and their files), with their session: `token` names the one of a mailed link; 404 to anyone else, and once it expired",
    tag,
    access: 'user',
    query: dataExportDownloadQuery,
    response: z.any(),
    responseType: 'file',
  }),
}
