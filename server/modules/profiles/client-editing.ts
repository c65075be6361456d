import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { checkCategorization, checkCountry, checkIndustry } from './catalogue-checks.ts'
import { changeClient, ownClient, publicClient, setClient } from './client-profile.ts'
import type { Body, ClientKind } from './shared.ts'

// The sections of the client and company profile editors.

export function clientEditors(db: DB) {
  return {
    mine: (c: Caller, kind: ClientKind, l: Locale) => ownClient(db, c, kind, l),
    public: (userId: number, kind: ClientKind, l: Locale) => publicClient(db, userId, kind, l),
    basics: (c: Caller, l: Locale, b: Body<'clientBasics'>) =>
      changeClient(db, c, 'individual', l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await checkIndustry(trx, b.industryId)
        await trx
          .updateTable('client_profile')
          .set({ country: b.country, city: b.city || null, industry_id: b.industryId ?? null })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    companyBasics: (c: Caller, l: Locale, b: Body<'companyBasics'>) =>
      changeClient(db, c, 'company', l, async (trx) => {
        await checkCountry(trx, 'country', b.country)
        await checkIndustry(trx, b.industryId)
        await trx
          .updateTable('client_profile')
          .set({
            country: b.country,
            city: b.city || null,
            industry_id: b.industryId ?? null,
            website: b.website || null,
            company_size: b.companySize ?? null,
            founded_year: b.foundedYear ?? null,
          })
          .where('user_id', '=', c.userId)
          .execute()
      }),
    who: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientText'>) =>
      setClient(db, c, kind, l, { who: b.text }),
    what: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientText'>) =>
      setClient(db, c, kind, l, { what: b.text }),
    description: (c: Caller, kind: ClientKind, l: Locale, b: Body<'clientDescription'>) =>
      setClient(db, c, kind, l, { description: b.description }),
    about: (c: Caller, kind: ClientKind, l: Locale, b: Body<'about'>) =>
      setClient(db, c, kind, l, { who: b.who, what: b.what, description: b.description }),
    /** An individual client's category and subcategories, replaced together. */
    categorization: (c: Caller, l: Locale, b: Body<'clientCategorization'>) =>
      changeClient(db, c, 'individual', l, async (trx) => {
        const { subs } = await checkCategorization(trx, b.categoryId, b.subcategoryIds, [])
        await trx
          .updateTable('client_profile')
          .set({ category_id: b.categoryId })
          .where('user_id', '=', c.userId)
          .execute()
        await trx.deleteFrom('client_subcategory').where('user_id', '=', c.userId).execute()
        if (subs.length)
          await trx
            .insertInto('client_subcategory')
            .values(subs.map((s) => ({ user_id: c.userId, subcategory_id: s })))
            .execute()
      }),
  }
}
