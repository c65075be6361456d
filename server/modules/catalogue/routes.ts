import { implement } from '#server/api/handler.ts'
import { catalogueContract as c } from './contract.ts'
import type { CatalogueService } from './service.ts'

export function catalogueRoutes(catalogue: CatalogueService) {
  return [
    implement(c.languages, async ({ ctx }) => ({ data: await catalogue.languages(ctx.locale) })),
    implement(c.countries, async ({ ctx }) => ({ data: await catalogue.countries(ctx.locale) })),
    implement(c.industries, async ({ ctx }) => ({ data: await catalogue.industries(ctx.locale) })),
    implement(c.categoryOptions, async ({ ctx }) => ({
      data: (await catalogue.categories(ctx.locale)).map(({ id, slug, name }) => ({ id, slug, name })),
    })),
    implement(c.subcategoryOptions, async ({ query, ctx }) => ({
      data: await catalogue.subcategories(ctx.locale, query.categoryId),
    })),
    implement(c.skillOptions, async ({ query, ctx }) => ({
      data: await catalogue.skills(ctx.locale, query.subcategoryId),
    })),
    implement(c.searchSkills, async ({ query, ctx }) => ({
      data: await catalogue.searchSkills(ctx.locale, query.q),
    })),
    implement(c.categories, async ({ ctx }) => ({ data: await catalogue.categories(ctx.locale) })),
    implement(c.allCategories, async ({ ctx }) => ({ data: await catalogue.tree(ctx.locale) })),
    implement(c.allSkills, async ({ ctx }) => ({ data: await catalogue.skills(ctx.locale) })),
  ]
}
