import { implement, type Caller } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import { adminCatalogueContract as c } from './admin-contract.ts'
import type { CatalogueAdmin } from './admin.ts'
import { sheetColumns } from './admin-contract.ts'
import { locales } from '#server/db/schema.ts'

// The API guard already answered anyone but a SuperAdmin (access 'admin', decision 220).
const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function adminCatalogueRoutes(admin: CatalogueAdmin) {
  return [
    implement(c.tree, async () => ({ data: await admin.tree() })),
    implement(c.create, ({ body, ctx }) => admin.create(me(ctx.caller), body)),
    implement(c.rename, ({ params, body, ctx }) =>
      admin.rename(me(ctx.caller), params.kind, params.id, body.names),
    ),
    implement(c.move, ({ params, body, ctx }) =>
      admin.move(me(ctx.caller), params.kind, params.id, body.direction),
    ),
    implement(c.remove, ({ params, ctx }) => admin.remove(me(ctx.caller), params.kind, params.id)),
    implement(c.image, ({ params, ctx }) => admin.uploadImage(me(ctx.caller), params.id, ctx.request)),
    implement(c.checkSheet, ({ ctx }) => admin.checkSheet(me(ctx.caller), ctx.request)),
    implement(c.importSheet, ({ body, ctx }) => admin.importSheet(me(ctx.caller), body)),
    implement(c.exportRows, async () => ({
      columns: [...sheetColumns],
      data: (await admin.exportRows()).map((r) => [
        r.category,
        r.subcategory,
        ...locales.map((l) => r.names[l]),
      ]),
    })),
    implement(c.exportSheet, ({ query }) => admin.exportSheet(query.format) as never),
  ]
}
