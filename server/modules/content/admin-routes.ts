import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { adminContentContract as c, type ContentKind } from './admin-contract.ts'
import type { ContentAdmin } from './admin.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

// The same six calls for every kind; blog posts add publish, and images have their own upload.
function kindRoutes<K extends ContentKind>(admin: ContentAdmin, kind: K) {
  const e = c[kind]
  return [
    // Generic over the kind, so TypeScript cannot tie each answer to its endpoint; the shapes match (validated outside production).
    implement(e.list, () => admin.list(kind) as never),
    implement(e.get, ({ params }) => admin.get(kind, params.id)),
    implement(e.create, ({ body, ctx }) => admin.create(me(ctx.caller), kind, body as never)),
    implement(e.update, ({ params, body, ctx }) =>
      admin.update(me(ctx.caller), kind, params.id, body as never),
    ),
    implement(e.remove, ({ params, ctx }) => admin.remove(me(ctx.caller), kind, params.id)),
    implement(
      e.move,
      ({ params, body, ctx }) => admin.move(me(ctx.caller), kind, params.id, body.direction) as never,
    ),
  ]
}

export function contentAdminRoutes(admin: ContentAdmin) {
  return [
    ...kindRoutes(admin, 'blogs'),
    ...kindRoutes(admin, 'faq'),
    ...kindRoutes(admin, 'boxes'),
    ...kindRoutes(admin, 'services'),
    ...kindRoutes(admin, 'logos'),
    implement(c.blogs.publish, ({ params, body, ctx }) =>
      admin.publish(me(ctx.caller), params.id, body.published),
    ),
    implement(c.image, ({ ctx }) => admin.uploadImage(me(ctx.caller), ctx.request)),
  ]
}
