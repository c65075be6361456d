import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { locales, type Locale } from '#server/db/schema.ts'
import { boxIcons, contentKinds, faqAudiences, type ContentKind } from './kinds.ts'

// The admin area's content screens (issue 18 item 3, docs/product.md §7 "Admin/* … blogs, logos, home boxes,
// services"; decisions 240–242): the FAQ, blog posts, home boxes, services and partner logos the
// public pages show, each text in the five languages. A text written in only some languages shows
// only to readers of those (decision 241). Every endpoint is SuperAdmin only and every change is
// audited. The same schemas parse the admin's forms (app/routes/admin/content/*).
export { boxIcons, contentKinds, faqAudiences, type ContentKind }

const text = (max: number) =>
  z.string({ error: 'is required' }).trim().max(max, `must be at most ${max} characters`)
const required = (max: number) => text(max).min(1, 'is required')
/** One text per language; empty where it is not written. */
const perLanguage = (max: number) =>
  z
    .object(
      Object.fromEntries(locales.map((l) => [l, text(max).default('')])) as Record<
        Locale,
        z.ZodDefault<z.ZodString>
      >,
    )
    .prefault({})
/** Images the site may show: a seeded public file or one uploaded through Admin/content/images. */
export const contentImageUrl = z
  .string()
  .trim()
  .regex(
    /^\/(images\/[\w./-]+\.(svg|png|jpe?g|gif)|api\/v1\/files\/\d+\/download)$/,
    'must be an uploaded image',
  )
const link = z
  .string()
  .trim()
  .max(500, 'must be at most 500 characters')
  .url('must be a web address')
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')

/**
 * A language is written when all of an item's texts in it are; half a language is an error on the
 * missing field (`answer.de`), and at least one language must be written.
 */
function written<F extends string>(fields: F[]) {
  return (value: Record<F, Record<Locale, string>>, ctx: z.RefinementCtx) => {
    let any = false
    for (const l of locales) {
      const filled = fields.filter((f) => value[f][l] !== '')
      if (filled.length) any = true
      if (filled.length && filled.length < fields.length)
        for (const f of fields)
          if (value[f][l] === '')
            ctx.addIssue({ code: 'custom', path: [f, l], message: 'is required in this language' })
    }
    if (!any)
      ctx.addIssue({ code: 'custom', path: [fields[0], 'en'], message: 'write at least one language' })
  }
}

export const faqInput = z
  .object({
    question: perLanguage(300),
    answer: perLanguage(4000),
    audience: z.enum(faqAudiences, { error: 'must be all, client or freelancer' }),
  })
  .superRefine(written(['question', 'answer']))
export const boxInput = z
  .object({
    title: perLanguage(120),
    body: perLanguage(600),
    icon: z.enum(boxIcons, { error: 'must be one of the icons' }),
  })
  .superRefine(written(['title', 'body']))
export const serviceInput = z
  .object({ title: perLanguage(120), body: perLanguage(600), areaSlug: required(80) })
  .superRefine(written(['title', 'body']))
export const logoInput = z.object({
  name: required(100),
  imageUrl: contentImageUrl,
  linkUrl: z.union([z.literal(''), link]).default(''),
})
export const blogInput = z
  .object({
    title: perLanguage(200),
    summary: perLanguage(400),
    body: perLanguage(20000),
    author: required(100),
    tags: text(200)
      .default('')
      .refine(
        (t) => t === '' || /^[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*$/.test(t),
        'must be words in lower case with hyphens, separated by commas',
      ),
    imageUrl: z.union([z.literal(''), contentImageUrl]).default(''),
  })
  .superRefine(written(['title', 'body']))

export const contentInputs = {
  blogs: blogInput,
  faq: faqInput,
  boxes: boxInput,
  services: serviceInput,
  logos: logoInput,
} satisfies Record<ContentKind, z.ZodType>
export type ContentInput<K extends ContentKind> = z.output<(typeof contentInputs)[K]>

const localized = z.object(
  Object.fromEntries(locales.map((l) => [l, z.string()])) as Record<Locale, z.ZodString>,
)
const base = { id: z.number(), slug: z.string(), sortOrder: z.number() }
export const adminItems = {
  blogs: z.object({
    ...base,
    title: localized,
    summary: localized,
    body: localized,
    author: z.string(),
    tags: z.string(),
    imageUrl: z.string(),
    published: z.boolean(),
    publishedAt: z.string(),
  }),
  faq: z.object({ ...base, question: localized, answer: localized, audience: z.string() }),
  boxes: z.object({ ...base, title: localized, body: localized, icon: z.string() }),
  services: z.object({ ...base, title: localized, body: localized, areaSlug: z.string() }),
  logos: z.object({ ...base, name: z.string(), imageUrl: z.string(), linkUrl: z.string() }),
} satisfies Record<ContentKind, z.ZodType>
export type AdminItem<K extends ContentKind> = z.output<(typeof adminItems)[K]>

const id = recordId
const params = z.object({ id })
const ok = z.object({ ok: z.literal(true) })
const tag = 'Admin'

const names: Record<ContentKind, string> = {
  blogs: 'blog posts',
  faq: 'FAQ entries',
  boxes: 'home boxes',
  services: 'services',
  logos: 'partner logos',
}

/** The same six calls for each kind of content. */
function kindEndpoints<K extends ContentKind>(kind: K) {
  const input = contentInputs[kind] as (typeof contentInputs)[K]
  const item = adminItems[kind] as (typeof adminItems)[K]
  const path = `Admin/content/${kind}`
  const what = names[kind]
  return {
    list: endpoint({
      method: 'GET',
      path,
      summary: `SuperAdmin: all ${what} in every language, in the public order${kind === 'blogs' ? ' (drafts too)' : ''}`,
      tag,
      access: 'admin',
      response: z.object({ data: z.array(item) }),
    }),
    get: endpoint({
      method: 'GET',
      path: `${path}/{id}`,
      summary: `SuperAdmin: one of the ${what}`,
      tag,
      access: 'admin',
      params,
      response: item,
    }),
    create: endpoint({
      method: 'POST',
      path,
      summary: `SuperAdmin: add one of the ${what}${kind === 'blogs' ? ' (a draft)' : ' (last in order)'}; audited`,
      tag,
      access: 'admin',
      body: input,
      response: item,
    }),
    update: endpoint({
      method: 'PUT',
      path: `${path}/{id}`,
      summary: `SuperAdmin: change one of the ${what}; audited`,
      tag,
      access: 'admin',
      params,
      body: input,
      response: item,
    }),
    remove: endpoint({
      method: 'DELETE',
      path: `${path}/{id}`,
      summary: `SuperAdmin: delete one of the ${what}; audited`,
      tag,
      access: 'admin',
      params,
      response: ok,
    }),
    move: endpoint({
      method: 'POST',
      path: `${path}/{id}/move`,
      summary: `SuperAdmin: move one of the ${what} a place up or down in the public order; audited`,
      tag,
      access: 'admin',
      params,
      body: z.object({ direction: z.enum(['up', 'down'], { error: 'must be up or down' }) }),
      response: z.object({ data: z.array(item) }),
    }),
  }
}

export const adminContentContract = {
  blogs: {
    ...kindEndpoints('blogs'),
    publish: endpoint({
      method: 'POST',
      path: 'Admin/content/blogs/{id}/publish',
      summary:
        'SuperAdmin: publish a blog post (in every language it is written in) or take it back to draft; audited',
      tag,
      access: 'admin',
      params,
      body: z.object({ published: z.boolean({ error: 'must be true or false' }) }),
      response: adminItems.blogs,
    }),
  },
  faq: kindEndpoints('faq'),
  boxes: kindEndpoints('boxes'),
  services: kindEndpoints('services'),
  logos: kindEndpoints('logos'),
  image: endpoint({
    method: 'POST',
    path: 'Admin/content/images',
    summary:
      'SuperAdmin: upload an image for a blog post or a partner logo (multipart field file; docs/product.md §5 image rules); answers its address',
    tag,
    access: 'admin',
    response: z.object({ id: z.number(), url: z.string() }),
  }),
}
