import type { DB } from './database.ts'
import { areas, skills } from './seed-data/catalogue.ts'
import { countries, industries, languages } from './seed-data/reference.ts'
import type { Transaction } from 'kysely'
import { locales, type Database } from './schema.ts'
import type { Localized } from './seed-data/types.ts'
import * as content from './seed-data/content.ts'
import { seedContent } from '../modules/content/seed.ts'

const localized = (prefix: string, text: Localized) =>
  Object.fromEntries(locales.map((l) => [`${prefix}_${l}`, text[l]]))

// The reference seed is idempotent: it upserts by slug, so it runs at every start and keeps the
// reference lists in step with the code without touching rows that users created.
export async function seedReference(db: DB) {
  await db.transaction().execute(async (trx) => {
    if (await catalogueDue(trx)) await seedCatalogue(trx)
    for (const ind of industries) {
      const names = localized('name', ind.name)
      await trx
        .insertInto('industry')
        .values({ slug: ind.slug, ...names } as never)
        .onConflict((oc) => oc.column('slug').doUpdateSet(names as never))
        .execute()
    }
    for (const code of countries)
      await trx
        .insertInto('country')
        .values({ code })
        .onConflict((oc) => oc.doNothing())
        .execute()
    for (const code of languages)
      await trx
        .insertInto('language')
        .values({ code })
        .onConflict((oc) => oc.doNothing())
        .execute()
    await seedContent(trx, {
      faq: content.faq,
      blogPosts: content.blogPosts,
      homeBoxes: content.homeBoxes,
      services: content.services,
      partnerLogos: content.partnerLogos,
      pages: [
        { slug: 'about-us', title: content.pageTitles.aboutUs, body: content.aboutUs },
        { slug: 'why-workneer', title: content.pageTitles.whyWorkneer, body: content.whyWorkneer },
        { slug: 'terms', title: content.pageTitles.terms, body: content.terms },
      ],
    })
  })
}

// The catalogue is the admin area's once it is loaded (decision 246): loaded once, marked, and never
// upserted again, so an admin's renames, moves and deletions survive every start. A release whose
// seed brings new areas or skills loads them under a new marker name.
const CATALOGUE_MARKER = 'catalogue-1'

/** True while this release's catalogue has not been loaded (a first start's work, decision 273). */
export async function catalogueDue(db: DB | Transaction<Database>) {
  return !(await db
    .selectFrom('seed_marker')
    .select('name')
    .where('name', '=', CATALOGUE_MARKER)
    .executeTakeFirst())
}

async function seedCatalogue(trx: Transaction<Database>) {
  for (const s of skills) {
    const names = localized('name', s.name)
    await trx
      .insertInto('skill')
      .values({ slug: s.slug, ...names } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(names as never))
      .execute()
  }
  const skillIds = new Map(
    (await trx.selectFrom('skill').select(['id', 'slug']).execute()).map((r) => [r.slug, r.id]),
  )
  for (const [order, area] of areas.entries()) {
    const values = {
      ...localized('name', area.name),
      ...localized('description', area.description),
      image_url: area.image,
      sort_order: order,
    }
    const { id: categoryId } = await trx
      .insertInto('category')
      .values({ slug: area.slug, ...values } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const [subOrder, sub] of area.subcategories.entries()) {
      const subValues = { ...localized('name', sub.name), category_id: categoryId, sort_order: subOrder }
      const { id: subId } = await trx
        .insertInto('subcategory')
        .values({ slug: sub.slug, ...subValues } as never)
        .onConflict((oc) => oc.column('slug').doUpdateSet(subValues as never))
        .returning('id')
        .executeTakeFirstOrThrow()
      for (const slug of sub.skills) {
        const skillId = skillIds.get(slug)
        if (!skillId) throw new Error(`seed: subcategory ${sub.slug} names unknown skill ${slug}`)
        await trx
          .insertInto('subcategory_skill')
          .values({ subcategory_id: subId, skill_id: skillId })
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
    }
  }
  const now = new Date().toISOString()
  await trx
    .insertInto('seed_marker')
    .values({ name: CATALOGUE_MARKER, attempts: 1, started_at: now, completed_at: now })
    .onConflict((oc) => oc.doNothing())
    .execute()
}
