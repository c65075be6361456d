import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import { findItem, inTransaction } from './admin-names.ts'

// A category's image: uploaded by an admin, shown to everyone, released when replaced.

export const IMAGE_PURPOSE = 'category-image'
export const imageUrlOf = (fileId: number) => `/api/v1/files/${fileId}/download`

/** Lets anyone read category images, and tells the file sweep which are still shown. */
export function registerCategoryImages(files: FileService) {
  files.setReadPolicy(IMAGE_PURPOSE, () => true)
  files.setReferences(IMAGE_PURPOSE, async (executor, ids) => {
    const urls = ids.map(imageUrlOf)
    const used = await executor
      .selectFrom('category')
      .select('image_url')
      .where('image_url', 'in', urls)
      .execute()
    return used.map((r) => Number(r.image_url.split('/').at(-2)))
  })
}

export async function uploadCategoryImage(
  deps: { db: DB; files: FileService },
  caller: Caller,
  id: number,
  request: Request,
) {
  const { db, files } = deps
  await findItem(db, 'category', id)
  const stored = await files.receive(request, { kind: 'image', purpose: IMAGE_PURPOSE, ownerId: null })
  return inTransaction(db, async (trx) => {
    const row = await findItem(trx, 'category', id)
    const old = String(row.image_url).match(/^\/api\/v1\/files\/(\d+)\/download$/)
    await trx
      .updateTable('category')
      .set({ image_url: imageUrlOf(stored.id) })
      .where('id', '=', id)
      .execute()
    // The replaced upload goes with this commit; seeded images are files of the site, not uploads.
    if (old) await files.release(trx, [Number(old[1])])
    await recordAdminAction(trx, {
      actorId: caller.userId,
      action: 'catalogue.category.image',
      objectType: 'category',
      objectId: id,
      reason: stored.originalName,
    })
    return { imageUrl: imageUrlOf(stored.id) }
  })
}
