import type { Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { locales } from '#server/db/schema.ts'
import type {
  BlogPost,
  FaqEntry,
  HomeBox,
  Localized,
  PartnerLogo,
  ServiceHighlight,
} from '#server/db/seed-data/types.ts'

export interface ContentSeed {
  faq: FaqEntry[]
  blogPosts: BlogPost[]
  homeBoxes: HomeBox[]
  services: ServiceHighlight[]
  partnerLogos: PartnerLogo[]
  pages: Array<{ slug: 'about-us' | 'why-workneer' | 'terms'; title: Localized; body: Localized }>
}

type Trx = Transaction<Database>
type SeededTable =
  'faq_entry' | 'blog_post' | 'home_box' | 'service_highlight' | 'partner_logo' | 'content_page'
/** One seeded row: `values` are written on every start, `created` only when the row is new. */
interface SeedRow {
  key: string
  values: Record<string, unknown>
  created?: Record<string, unknown>
}

const localized = (prefix: string, text: Localized) =>
  Object.fromEntries(locales.map((l) => [`${prefix}_${l}`, text[l]]))

async function upsert(trx: Trx, table: SeededTable, column: 'slug' | 'name', rows: SeedRow[]) {
  for (const row of rows)
    await trx
      .insertInto(table)
      .values({ [column]: row.key, ...row.values, ...row.created } as never)
      .onConflict((oc) => oc.column(column as never).doUpdateSet(row.values as never))
      .execute()
}

function blogRows(posts: BlogPost[], now: string): SeedRow[] {
  return posts.map((p) => ({
    key: p.slug,
    values: {
      ...localized('title', p.title),
      ...localized('summary', p.summary),
      ...localized('body', p.body),
      author: p.author,
      tags: p.tags.join(','),
      published_at: new Date(`${p.publishedAt}T09:00:00Z`).toISOString(),
    },
    created: { published: 1, image_url: null, created_at: now },
  }))
}

/** Texts of the home page's lists, each in the seed's order. */
function listRows(seed: ContentSeed) {
  return {
    faq: seed.faq.map((f, order) => ({
      key: f.slug,
      values: {
        ...localized('question', f.question),
        ...localized('answer', f.answer),
        audience: f.audience,
        sort_order: order,
      },
    })),
    boxes: seed.homeBoxes.map((b, order) => ({
      key: b.slug,
      values: {
        ...localized('title', b.title),
        ...localized('body', b.body),
        icon: b.icon,
        sort_order: order,
      },
    })),
    services: seed.services.map((s, order) => ({
      key: s.slug,
      values: {
        ...localized('title', s.title),
        ...localized('body', s.body),
        area_slug: s.areaSlug,
        sort_order: order,
      },
    })),
    logos: seed.partnerLogos.map((l, order) => ({
      key: l.name,
      values: { image_url: l.image, sort_order: order },
    })),
  }
}

// Upserts the public site's content by slug (logos by name), so the seed runs at every start and
// keeps the texts in step with the code. Rows the admin area created, changed or deleted are left
// alone (content_admin_owned, decision 240): an admin's edit is never undone by a restart.
export async function seedContent(trx: Trx, seed: ContentSeed) {
  const now = new Date().toISOString()
  const owned = new Set(
    (await trx.selectFrom('content_admin_owned').select(['kind', 'key']).execute()).map(
      (r) => `${r.kind}:${r.key}`,
    ),
  )
  const free = (kind: string, rows: SeedRow[]) => rows.filter((r) => !owned.has(`${kind}:${r.key}`))
  const lists = listRows(seed)
  await upsert(trx, 'faq_entry', 'slug', free('faq', lists.faq))
  await upsert(trx, 'blog_post', 'slug', free('blogs', blogRows(seed.blogPosts, now)))
  await upsert(trx, 'home_box', 'slug', free('boxes', lists.boxes))
  await upsert(trx, 'service_highlight', 'slug', free('services', lists.services))
  await upsert(trx, 'partner_logo', 'name', free('logos', lists.logos))
  const pages = seed.pages.map((p) => ({
    key: p.slug,
    values: { ...localized('title', p.title), ...localized('body', p.body) },
    created: { updated_at: now },
  }))
  await upsert(trx, 'content_page', 'slug', pages)
}
