import { implement } from '#server/api/handler.ts'
import { contentContract as c } from './contract.ts'
import type { ContentService } from './service.ts'

export function contentRoutes(content: ContentService) {
  return [
    implement(c.faq, async ({ ctx }) => ({ data: await content.faq(ctx.locale) })),
    implement(c.blogs, ({ query, ctx }) => content.blogs(ctx.locale, query.page, query.pageSize)),
    implement(c.blog, ({ params, ctx }) => content.blog(ctx.locale, params.id)),
    implement(c.homeBoxes, async ({ ctx }) => ({ data: await content.homeBoxes(ctx.locale) })),
    implement(c.services, async ({ ctx }) => ({ data: await content.services(ctx.locale) })),
    implement(c.logos, async () => ({ data: await content.logos() })),
    implement(c.page, ({ params, ctx }) => content.page(ctx.locale, params.slug)),
    implement(c.subscribe, ({ params, ctx }) => content.subscribe(params.address, ctx.locale, ctx.ip)),
    implement(c.confirmSubscription, ({ params, ctx }) => content.confirmSubscription(params.token, ctx.ip)),
    implement(c.unsubscribe, ({ params }) => content.unsubscribe(params.token)),
    implement(c.contact, ({ body, ctx }) =>
      content.contact(body, { locale: ctx.locale, ip: ctx.ip, userId: ctx.caller?.userId ?? null }),
    ),
  ]
}
