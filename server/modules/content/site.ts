import type { DB } from '#server/db/database.ts'
import type { Locale } from '#server/db/schema.ts'
import { notFound } from '#server/api/errors.ts'

// What the public site shows: the FAQ, the blog, the home page's boxes, services and logos, and the
// static pages. Texts are stored per language; the caller's language picks the column, and an item
// not written in it is not shown (decision 241).

export function faq(db: DB, locale: Locale) {
  return db
    .selectFrom('faq_entry')
    .select(['id', 'slug', 'audience', `question_${locale} as question`, `answer_${locale} as answer`])
    .where(`question_${locale}`, '!=', '')
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
}

const blogColumns = (locale: Locale) =>
  [
    'id',
    'slug',
    'author',
    'tags',
    'image_url',
    'published_at',
    `title_${locale} as title`,
    `summary_${locale} as summary`,
  ] as const

const toSummary = (r: {
  id: number
  slug: string
  author: string
  tags: string
  image_url: string | null
  published_at: string
  title: string
  summary: string
}) => ({
  id: r.id,
  slug: r.slug,
  title: r.title,
  summary: r.summary,
  author: r.author,
  tags: r.tags ? r.tags.split(',') : [],
  imageUrl: r.image_url,
  publishedAt: r.published_at,
})

export async function blogs(db: DB, locale: Locale, page: number, pageSize: number) {
  const { total } = await db
    .selectFrom('blog_post')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('published', '=', 1)
    .where(`title_${locale}`, '!=', '')
    .executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('blog_post')
    .select(blogColumns(locale))
    .where('published', '=', 1)
    .where(`title_${locale}`, '!=', '')
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  const count = Number(total)
  return {
    data: rows.map(toSummary),
    page,
    pageSize,
    total: count,
    totalPages: Math.max(1, Math.ceil(count / pageSize)),
  }
}

export async function blog(db: DB, locale: Locale, id: number) {
  const row = await db
    .selectFrom('blog_post')
    .select([...blogColumns(locale), `body_${locale} as body`])
    .where('id', '=', id)
    .where('published', '=', 1)
    .where(`title_${locale}`, '!=', '')
    .executeTakeFirst()
  if (!row) throw notFound('Blog post')
  return { ...toSummary(row), body: row.body }
}

export function homeBoxes(db: DB, locale: Locale) {
  return db
    .selectFrom('home_box')
    .select(['id', 'slug', 'icon', `title_${locale} as title`, `body_${locale} as body`])
    .where(`title_${locale}`, '!=', '')
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
}

export function services(db: DB, locale: Locale) {
  return db
    .selectFrom('service_highlight')
    .select(['id', 'slug', 'area_slug as areaSlug', `title_${locale} as title`, `body_${locale} as body`])
    .where(`title_${locale}`, '!=', '')
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
}

export function logos(db: DB) {
  return db
    .selectFrom('partner_logo')
    .select(['id', 'name', 'image_url as imageUrl', 'link_url as linkUrl'])
    .orderBy('sort_order')
    .orderBy('id')
    .execute()
}

export async function page(db: DB, locale: Locale, slug: string) {
  const row = await db
    .selectFrom('content_page')
    .select(['slug', 'updated_at as updatedAt', `title_${locale} as title`, `body_${locale} as body`])
    .where('slug', '=', slug)
    .executeTakeFirst()
  if (!row) throw notFound('Page')
  return row
}
