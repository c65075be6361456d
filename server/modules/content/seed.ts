import type { Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import { locales } from '../../db/schema.ts'
import type {
  BlogPost,
  FaqEntry,
  HomeBox,
  Localized,
  PartnerLogo,
  ServiceHighlight,
} from '../../db/seed-data/types.ts'

export interface ContentSeed {
  faq: FaqEntry[]
  blogPosts: BlogPost[]
  homeBoxes: HomeBox[]
  services: ServiceHighlight[]
  partnerLogos: PartnerLogo[]
  pages: Array<{ slug: 'about-us' | 'why-workneer' | 'terms'; title: Localized; body: Localized }>
}

const localized = (prefix: string, text: Localized) =>
  Object.fromEntries(locales.map((l) => [`${prefix}_${l}`, text[l]]))

// Upserts the public site's content by slug (logos by name), so the seed runs at every start and
// keeps the texts in step with the code. Rows the admin area created, changed or deleted are left
// alone (content_admin_owned, decision 240): an admin's edit is never undone by a restart.
export async function seedContent(trx: Transaction<Database>, seed: ContentSeed) {
  const now = new Date().toISOString()
  const owned = new Set(
    (await trx.selectFrom('content_admin_owned').select(['kind', 'key']).execute()).map(
      (r) => `${r.kind}:${r.key}`,
    ),
  )
  const free = (kind: string, key: string) => !owned.has(`${kind}:${key}`)
  for (const [order, f] of seed.faq.entries()) {
    if (!free('faq', f.slug)) continue
    const values = {
      ...localized('question', f.question),
      ...localized('answer', f.answer),
      audience: f.audience,
      sort_order: order,
    }
    await trx
      .insertInto('faq_entry')
      .values({ slug: f.slug, ...values } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .execute()
  }
  for (const p of seed.blogPosts) {
    if (!free('blogs', p.slug)) continue
    const values = {
      ...localized('title', p.title),
      ...localized('summary', p.summary),
      ...localized('body', p.body),
      author: p.author,
      tags: p.tags.join(','),
      published_at: new Date(`${p.publishedAt}T09:00:00Z`).toISOString(),
    }
    await trx
      .insertInto('blog_post')
      .values({ slug: p.slug, ...values, published: 1, image_url: null, created_at: now } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .execute()
  }
  for (const [order, b] of seed.homeBoxes.entries()) {
    if (!free('boxes', b.slug)) continue
    const values = {
      ...localized('title', b.title),
      ...localized('body', b.body),
      icon: b.icon,
      sort_order: order,
    }
    await trx
      .insertInto('home_box')
      .values({ slug: b.slug, ...values } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .execute()
  }
  for (const [order, s] of seed.services.entries()) {
    if (!free('services', s.slug)) continue
    const values = {
      ...localized('title', s.title),
      ...localized('body', s.body),
      area_slug: s.areaSlug,
      sort_order: order,
    }
    await trx
      .insertInto('service_highlight')
      .values({ slug: s.slug, ...values } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .execute()
  }
  for (const [order, l] of seed.partnerLogos.entries()) {
    if (!free('logos', l.name)) continue
    const values = { image_url: l.image, sort_order: order }
    await trx
      .insertInto('partner_logo')
      .values({ name: l.name, ...values })
      .onConflict((oc) => oc.column('name').doUpdateSet(values))
      .execute()
  }
  for (const p of seed.pages) {
    const values = { ...localized('title', p.title), ...localized('body', p.body) }
    await trx
      .insertInto('content_page')
      .values({ slug: p.slug, ...values, updated_at: now } as never)
      .onConflict((oc) => oc.column('slug').doUpdateSet(values as never))
      .execute()
  }
}
