import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireRole, rolesOf } from './access.ts'
import { callerCompleteness } from './completeness.ts'
import { fileUrl, userCard } from './display.ts'
import { forUpdate, replaceFile } from './profile-files.ts'
import { nowIso, type ProfilesDeps, type Trx } from './shared.ts'
import { storeCompleteness } from './stored-completeness.ts'

// Profile images. The image lives on the user row (app_user.image_file_id), which identity reads
// for the token's imageUrl and the top bar, so a new image shows on the next page at once. `role`
// is the kind of profile the route is for: a client cannot change a freelancer's picture route.

/** Points the user row at another image (or none), answering the one it pointed at. */
async function setUserImage({ dialect }: ProfilesDeps, trx: Trx, userId: number, fileId: number | null) {
  const before = await forUpdate(
    dialect,
    trx.selectFrom('app_user').select('image_file_id').where('id', '=', userId),
  ).executeTakeFirst()
  await trx
    .updateTable('app_user')
    .set({ image_file_id: fileId, updated_at: nowIso() })
    .where('id', '=', userId)
    .execute()
  return before?.image_file_id ?? null
}

/** The picture counts towards completeness, so the stored percentage follows it. */
async function storeCallerCompleteness({ db }: ProfilesDeps, caller: Caller) {
  await storeCompleteness(db, caller.userId, { completeness: await callerCompleteness(db, caller) })
}

export function profileImages(deps: ProfilesDeps) {
  const { db } = deps
  return {
    async upload(caller: Caller, role: number, request: Request) {
      requireRole(caller, role)
      const stored = await deps.files.receive(request, {
        kind: 'image',
        purpose: 'profile-image',
        ownerId: caller.userId,
      })
      await replaceFile(deps, stored.id, (trx) => setUserImage(deps, trx, caller.userId, stored.id))
      await storeCallerCompleteness(deps, caller)
      return { imageUrl: fileUrl(stored.id) }
    },
    async remove(caller: Caller, role: number) {
      requireRole(caller, role)
      await replaceFile(deps, null, (trx) => setUserImage(deps, trx, caller.userId, null))
      await storeCallerCompleteness(deps, caller)
      return { imageUrl: null }
    },
    async own(caller: Caller, role: number) {
      requireRole(caller, role)
      const u = await db
        .selectFrom('app_user')
        .select('image_file_id')
        .where('id', '=', caller.userId)
        .executeTakeFirst()
      return { imageUrl: u?.image_file_id != null ? fileUrl(u.image_file_id) : null }
    },
    /** Anyone's picture, while the account is active and has that kind of profile. */
    async public(userId: number, role: number) {
      const card = await userCard(db, userId)
      if (!card || card.status !== 'Active' || !(await rolesOf(db, userId)).includes(role))
        throw notFound('Profile')
      return { imageUrl: card.image_file_id != null ? fileUrl(card.image_file_id) : null }
    },
  }
}
