import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { requireFreelancer } from './access.ts'
import { ensureFreelancer } from './freelancer-editing.ts'
import { ownFreelancer } from './freelancer-view.ts'
import { forUpdate, replaceFile } from './profile-files.ts'
import { nowIso, type ProfilesDeps, type Trx } from './shared.ts'

// A freelancer's schedule of rates, a spreadsheet clients may download from the profile (decision 014).

/** Points the profile at another rate sheet (or none), answering the one it pointed at. */
async function setRateSheet({ dialect }: ProfilesDeps, trx: Trx, userId: number, fileId: number | null) {
  await ensureFreelancer(trx, userId)
  const before = await forUpdate(
    dialect,
    trx.selectFrom('freelancer_profile').select('rate_sheet_file_id').where('user_id', '=', userId),
  ).executeTakeFirstOrThrow()
  await trx
    .updateTable('freelancer_profile')
    .set({ rate_sheet_file_id: fileId, updated_at: nowIso() })
    .where('user_id', '=', userId)
    .execute()
  return before.rate_sheet_file_id
}

export function rateSheetEditors(deps: ProfilesDeps) {
  return {
    /** The caller must be a freelancer before a byte is read; then the spreadsheet rules of the file service. */
    async upload(c: Caller, l: Locale, request: Request) {
      requireFreelancer(c)
      const stored = await deps.files.receive(request, {
        kind: 'spreadsheet',
        purpose: 'rate-sheet',
        ownerId: c.userId,
      })
      await replaceFile(deps, stored.id, (trx) => setRateSheet(deps, trx, c.userId, stored.id))
      return ownFreelancer(deps.db, c, l)
    },
    async remove(c: Caller, l: Locale) {
      requireFreelancer(c)
      await replaceFile(deps, null, (trx) => setRateSheet(deps, trx, c.userId, null))
      return ownFreelancer(deps.db, c, l)
    },
  }
}
