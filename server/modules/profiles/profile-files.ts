import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { FileService, StoredFile } from '../files/service.ts'
import type { ProfilesDeps, Trx } from './shared.ts'

// The files profiles point at (profile images, portfolio pictures and documents, rate sheets):
// who may read them, which are still in use, and how one replaces another without leaving either
// without an owner.

/** PostgreSQL locks the row read before a file replaces another (SQLite's BEGIN IMMEDIATE already holds the write lock). */
export const forUpdate = <Q extends { forUpdate(): Q }>(dialect: Dialect, q: Q) =>
  dialect === 'postgres' ? q.forUpdate() : q

/**
 * Swaps a stored file on a row: `swap` points the row at `next` in one transaction and answers the
 * file it pointed at, whose row is deleted there too and whose bytes go after commit. If the swap
 * fails, the just-uploaded file is released instead.
 */
export async function replaceFile(
  { db, files }: Pick<ProfilesDeps, 'db' | 'files'>,
  next: number | null,
  swap: (trx: Trx) => Promise<number | null>,
) {
  try {
    await db.transaction().execute(async (trx) => {
      const previous = await swap(trx)
      if (previous !== next) await files.release(trx, [previous])
    })
  } catch (error) {
    if (next != null) await db.transaction().execute((trx) => files.release(trx, [next]))
    throw error
  }
}

/** Tells the file service who may read profile files and which of them rows still point at. */
export function registerProfileFiles(db: DB, files: FileService) {
  // Profile images are public while their owner's account is; portfolio files follow the profile.
  const ownerActive = async (file: StoredFile) => {
    if (file.ownerId == null) return false
    const u = await db
      .selectFrom('app_user')
      .select('status')
      .where('id', '=', file.ownerId)
      .executeTakeFirst()
    return u?.status === 'Active'
  }
  files.setReadPolicy('profile-image', ownerActive)
  files.setReadPolicy('portfolio', ownerActive)
  files.setReadPolicy('rate-sheet', ownerActive)
  // The sweep may release a file of these purposes once no row here points at it (files/service.ts).
  files.setReferences('profile-image', async (executor, ids) =>
    (
      await executor
        .selectFrom('app_user')
        .select('image_file_id as id')
        .where('image_file_id', 'in', ids)
        .execute()
    ).map((r) => r.id!),
  )
  files.setReferences('rate-sheet', async (executor, ids) =>
    (
      await executor
        .selectFrom('freelancer_profile')
        .select('rate_sheet_file_id as id')
        .where('rate_sheet_file_id', 'in', ids)
        .execute()
    ).map((r) => r.id!),
  )
  files.setReferences('portfolio', async (executor, ids) =>
    (
      await executor
        .selectFrom('freelancer_portfolio')
        .select(['image_file_id', 'document_file_id'])
        .where((eb) => eb.or([eb('image_file_id', 'in', ids), eb('document_file_id', 'in', ids)]))
        .execute()
    )
      .flatMap((r) => [r.image_file_id, r.document_file_id])
      .filter((id): id is number => id != null),
  )
}
