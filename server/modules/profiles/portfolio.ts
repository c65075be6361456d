import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import { requireFreelancer } from './access.ts'
import { changeFreelancer } from './freelancer-editing.ts'
import { assertOne, assertRoom, deleteOwnItem } from './freelancer-sections.ts'
import { ownFreelancer } from './freelancer-view.ts'
import { forUpdate, replaceFile } from './profile-files.ts'
import { nowIso, type Body, type ProfilesDeps } from './shared.ts'
import { storeCompleteness } from './stored-completeness.ts'

// A freelancer's portfolio: items with a text, a link, and a picture and a document each.

const portfolioValues = (b: Body<'portfolio'>) => ({
  title: b.title,
  description: b.description,
  project_url: b.projectUrl ?? null,
  completed_month: b.completedMonth ?? null,
})

export function portfolioEditors(deps: ProfilesDeps) {
  return {
    portfolioAdd: (c: Caller, l: Locale, b: Body<'portfolio'>) =>
      changeFreelancer(deps, c, l, async (trx) => {
        await assertRoom(trx, 'freelancer_portfolio', c.userId, 'title')
        await trx
          .insertInto('freelancer_portfolio')
          .values({ user_id: c.userId, ...portfolioValues(b), created_at: nowIso() })
          .execute()
      }),
    portfolioUpdate: (c: Caller, l: Locale, id: number, b: Body<'portfolio'>) =>
      changeFreelancer(deps, c, l, async (trx) =>
        assertOne(
          await trx
            .updateTable('freelancer_portfolio')
            .set(portfolioValues(b))
            .where('id', '=', id)
            .where('user_id', '=', c.userId)
            .executeTakeFirst(),
          'Portfolio item',
        ),
      ),
    portfolioDelete: (c: Caller, l: Locale, id: number) => deletePortfolioItem(deps, c, l, id),
    portfolioUpload: (c: Caller, l: Locale, id: number, which: 'image' | 'document', request: Request) =>
      uploadPortfolioFile(deps, c, l, id, which, request),
  }
}

/** Deletes an item and releases its picture and document with it. */
function deletePortfolioItem(deps: ProfilesDeps, c: Caller, l: Locale, id: number) {
  return changeFreelancer(deps, c, l, async (trx) => {
    const item = await trx
      .selectFrom('freelancer_portfolio')
      .select(['image_file_id', 'document_file_id'])
      .where('id', '=', id)
      .where('user_id', '=', c.userId)
      .executeTakeFirst()
    await deleteOwnItem(trx, 'freelancer_portfolio', c.userId, id, 'Portfolio item')
    await deps.files.release(trx, [item?.image_file_id, item?.document_file_id])
  })
}

/** Uploads the picture or the document of one of the caller's items (the item is checked before a byte is read). */
async function uploadPortfolioFile(
  deps: ProfilesDeps,
  c: Caller,
  l: Locale,
  id: number,
  which: 'image' | 'document',
  request: Request,
) {
  const { db, dialect, files } = deps
  requireFreelancer(c)
  const item = await db
    .selectFrom('freelancer_portfolio')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', c.userId)
    .executeTakeFirst()
  if (!item) throw notFound('Portfolio item')
  const stored = await files.receive(request, { kind: which, purpose: 'portfolio', ownerId: c.userId })
  const column = which === 'image' ? 'image_file_id' : 'document_file_id'
  await replaceFile(deps, stored.id, async (trx) => {
    const before = await forUpdate(
      dialect,
      trx
        .selectFrom('freelancer_portfolio')
        .select(column)
        .where('id', '=', id)
        .where('user_id', '=', c.userId),
    ).executeTakeFirst()
    if (!before) throw notFound('Portfolio item')
    await trx
      .updateTable('freelancer_portfolio')
      .set({ [column]: stored.id })
      .where('id', '=', id)
      .execute()
    return before[column]
  })
  return storeCompleteness(db, c.userId, await ownFreelancer(db, c, l))
}
