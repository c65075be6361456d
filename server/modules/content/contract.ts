import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { newsletterAddress, newsletterToken } from './newsletter.ts'

// The public site's content (docs/product.md §7 Settings/faq, Settings/blogs, Settings/blog/{id}; the home
// boxes, services, logos and pages the admin area manages), the newsletter (POST subscribe/{address},
// empty body, text reply) and the contact form that reaches the support inbox.
const id = recordId
const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) })

export {
  newsletterAddress,
  newsletterToken,
  SUBSCRIBED_REPLY,
  CONFIRMED_REPLY,
  UNSUBSCRIBED_REPLY,
} from './newsletter.ts'

export const faqItem = z.object({
  id: z.number(),
  slug: z.string(),
  audience: z.string(),
  question: z.string(),
  answer: z.string(),
})
export const blogSummary = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  author: z.string(),
  tags: z.array(z.string()),
  imageUrl: z.string().nullable(),
  publishedAt: z.string(),
})
export const blogPost = blogSummary.extend({ body: z.string() })
export const homeBox = z.object({
  id: z.number(),
  slug: z.string(),
  icon: z.string(),
  title: z.string(),
  body: z.string(),
})
export const serviceHighlight = z.object({
  id: z.number(),
  slug: z.string(),
  areaSlug: z.string(),
  title: z.string(),
  body: z.string(),
})
export const partnerLogo = z.object({
  id: z.number(),
  name: z.string(),
  imageUrl: z.string(),
  linkUrl: z.string().nullable(),
})
export const contentPage = z.object({
  slug: z.string(),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string(),
})

export const contactMessage = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(2, 'must be at least 2 characters')
    .max(100, 'must be at most 100 characters'),
  email: z
    .string({ error: 'is required' })
    .trim()
    .max(254, 'must be at most 254 characters')
    .email('must be a valid email address'),
  subject: z
    .string({ error: 'is required' })
    .trim()
    .min(3, 'must be at least 3 characters')
    .max(150, 'must be at most 150 characters'),
  message: z
    .string({ error: 'is required' })
    .trim()
    .min(10, 'must be at least 10 characters')
    .max(5000, 'must be at most 5000 characters'),
})

const tag = 'Content'
export const contentContract = {
  faq: endpoint({
    method: 'GET',
    path: 'Settings/faq',
    summary: "Frequently asked questions in the caller's language",
    tag,
    access: 'public',
    response: list(faqItem),
  }),
  blogs: endpoint({
    method: 'GET',
    path: 'Settings/blogs',
    summary: 'Published blog posts, newest first, a page at a time',
    tag,
    access: 'public',
    query: z.object({
      page: id.default(1),
      pageSize: z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(50, 'must be at most 50')
        .default(6),
    }),
    response: z.object({
      data: z.array(blogSummary),
      page: z.number(),
      pageSize: z.number(),
      total: z.number(),
      totalPages: z.number(),
    }),
  }),
  blog: endpoint({
    method: 'GET',
    path: 'Settings/blog/{id}',
    summary: 'One blog post',
    tag,
    access: 'public',
    params: z.object({ id }),
    response: blogPost,
  }),
  homeBoxes: endpoint({
    method: 'GET',
    path: 'Settings/home-boxes',
    summary: 'The boxes of the home page',
    tag,
    access: 'public',
    response: list(homeBox),
  }),
  services: endpoint({
    method: 'GET',
    path: 'Settings/services',
    summary: 'The services shown on the home page',
    tag,
    access: 'public',
    response: list(serviceHighlight),
  }),
  logos: endpoint({
    method: 'GET',
    path: 'Settings/logos',
    summary: 'Partner logos',
    tag,
    access: 'public',
    response: list(partnerLogo),
  }),
  page: endpoint({
    method: 'GET',
    path: 'Settings/pages/{slug}',
    summary: 'A static page: about-us, why-workneer or terms',
    tag,
    access: 'public',
    params: z.object({
      slug: z.enum(['about-us', 'why-workneer', 'terms'], {
        error: 'must be about-us, why-workneer or terms',
      }),
    }),
    response: contentPage,
  }),
  subscribe: endpoint({
    method: 'POST',
    path: 'subscribe/{address}',
    summary:
      "Ask to subscribe an address to the newsletter: its owner gets a link to confirm (empty body; the same text reply whatever the address's state)",
    tag: 'Newsletter',
    access: 'public',
    params: z.object({
      address: z
        .string()
        .trim()
        .max(254, 'must be at most 254 characters')
        .regex(newsletterAddress, 'must be an email address'),
    }),
    response: z.string(),
    responseType: 'text',
  }),
  confirmSubscription: endpoint({
    method: 'POST',
    path: 'subscribe/confirm/{token}',
    summary: 'Start the subscription with the token of the mailed confirmation link (single use; text reply)',
    tag: 'Newsletter',
    access: 'public',
    params: z.object({ token: z.string().regex(newsletterToken, 'is not a valid confirmation token') }),
    response: z.string(),
    responseType: 'text',
  }),
  unsubscribe: endpoint({
    method: 'POST',
    path: 'subscribe/unsubscribe/{token}',
    summary: 'Unsubscribe with the token of the link in every newsletter mail (text reply)',
    tag: 'Newsletter',
    access: 'public',
    params: z.object({ token: z.string().regex(newsletterToken, 'is not a valid unsubscribe token') }),
    response: z.string(),
    responseType: 'text',
  }),
  contact: endpoint({
    method: 'POST',
    path: 'support/contact-us',
    summary: 'Send a message to the support inbox',
    tag: 'Support',
    access: 'public',
    body: contactMessage,
    response: z.object({ id: z.number() }),
  }),
}
