import type { Updateable } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { OwnClient, PublicClient } from './contract.ts'
import { companySections, completenessOf, individualSections } from './rules.ts'
import { clientRole, requireRole, rolesOf } from './access.ts'
import { countryName, personOf, userCard } from './display.ts'
import { nowIso, type ClientKind, type Trx } from './shared.ts'
import { storeCompleteness } from './stored-completeness.ts'
import { isVerified } from '../verification/verified.ts'
import { paidAmong } from '../payments/verified-payer.ts'

// The profiles of those who hire: an individual client's or a company's. Both live in
// client_profile; a company adds its website, size and founding year, an individual a category.

async function loadClient(
  db: DB,
  userId: number,
  kind: ClientKind,
  locale: Locale,
): Promise<PublicClient | null> {
  const card = await userCard(db, userId)
  if (!card) return null
  const n = `name_${locale}` as const
  const [p, subs, verified, paid] = await Promise.all([
    db
      .selectFrom('client_profile as cp')
      .leftJoin('industry as i', 'i.id', 'cp.industry_id')
      .leftJoin('category as c', 'c.id', 'cp.category_id')
      .selectAll('cp')
      .select([`i.${n} as industry_name`, `c.${n} as category_name`])
      .where('cp.user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('client_subcategory as x')
      .innerJoin('subcategory as s', 's.id', 'x.subcategory_id')
      .select(['s.id', `s.${n} as name`])
      .where('x.user_id', '=', userId)
      .orderBy('s.sort_order')
      .execute(),
    isVerified(db, userId),
    paidAmong(db, [userId]),
  ])
  return {
    ...personOf(card),
    kind,
    companyName: card.company_name,
    country: p?.country ?? null,
    countryName: countryName(locale, p?.country ?? null),
    city: p?.city ?? null,
    industry: p?.industry_id != null ? { id: p.industry_id, name: p.industry_name ?? '' } : null,
    website: p?.website ?? null,
    companySize: p?.company_size ?? null,
    foundedYear: p?.founded_year ?? null,
    who: p?.who ?? '',
    what: p?.what ?? '',
    description: p?.description ?? '',
    category: p?.category_id != null ? { id: p.category_id, name: p.category_name ?? '' } : null,
    subcategories: kind === 'individual' ? subs : [],
    verified,
    paymentVerified: paid.has(userId),
  }
}

function clientCompleteness(v: PublicClient) {
  if (v.kind === 'company') {
    return completenessOf(
      {
        image: v.imageUrl != null,
        basicDetails: !!v.country && !!v.industry,
        whoAreWe: !!v.who,
        whatDoWeDo: !!v.what,
        description: !!v.description,
      },
      companySections,
    )
  }
  return completenessOf(
    {
      image: v.imageUrl != null,
      basicDetails: !!v.country,
      whoIAm: !!v.who,
      whatIDo: !!v.what,
      description: !!v.description,
      categorization: !!v.category,
    },
    individualSections,
  )
}

/** The caller's own client or company profile, for its editor, with what is still missing. */
export async function ownClient(
  db: DB,
  caller: Caller,
  kind: ClientKind,
  locale: Locale,
): Promise<OwnClient> {
  requireRole(caller, clientRole(kind))
  const view = await loadClient(db, caller.userId, kind, locale)
  if (!view) throw notFound('Profile')
  return { ...view, completeness: clientCompleteness(view) }
}

/** A client's or a company's public page: 404 unless the account is active and of that kind. */
export async function publicClient(db: DB, userId: number, kind: ClientKind, locale: Locale) {
  const roles = await rolesOf(db, userId)
  const view = roles.includes(clientRole(kind)) ? await loadClient(db, userId, kind, locale) : null
  const card = view ? await userCard(db, userId) : null
  if (!view || card?.status !== 'Active') throw notFound(kind === 'company' ? 'Company' : 'Client')
  return view
}

/** A change to the caller's profile in one transaction (starting it on the first); answers the whole profile. */
export async function changeClient(
  db: DB,
  caller: Caller,
  kind: ClientKind,
  locale: Locale,
  change: (trx: Trx) => Promise<void>,
) {
  requireRole(caller, clientRole(kind))
  await db.transaction().execute(async (trx) => {
    const now = nowIso()
    await trx
      .insertInto('client_profile')
      .values({
        user_id: caller.userId,
        kind,
        who: '',
        what: '',
        description: '',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute()
    await change(trx)
    await trx
      .updateTable('client_profile')
      .set({ updated_at: nowIso() })
      .where('user_id', '=', caller.userId)
      .execute()
  })
  return storeCompleteness(db, caller.userId, await ownClient(db, caller, kind, locale))
}

/** Sets columns of the caller's profile row. */
export const setClient = (
  db: DB,
  caller: Caller,
  kind: ClientKind,
  locale: Locale,
  values: Updateable<Database['client_profile']>,
) =>
  changeClient(
    db,
    caller,
    kind,
    locale,
    async (trx) =>
      void (await trx
        .updateTable('client_profile')
        .set(values)
        .where('user_id', '=', caller.userId)
        .execute()),
  )
