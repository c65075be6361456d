import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'

const id = recordId
const option = z.object({ id: z.number(), slug: z.string(), name: z.string() })
const coded = z.object({ code: z.string(), name: z.string() })
const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) })

export const category = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  categoryName: z.string(),
  description: z.string(),
  attachmentUrl: z.string(),
})
export const subcategory = option.extend({ categoryId: z.number() })
export const categoryTree = category.extend({
  subcategories: z.array(subcategory.extend({ skills: z.array(option) })),
})

const tag = 'Settings'
export const catalogueContract = {
  languages: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/languages',
    summary: 'Languages a profile can list',
    tag,
    access: 'public',
    response: list(coded),
  }),
  countries: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/countries',
    summary: "Countries, named in the caller's language",
    tag,
    access: 'public',
    response: list(coded),
  }),
  industries: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/industries',
    summary: 'Client industries',
    tag,
    access: 'public',
    response: list(option),
  }),
  categoryOptions: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/categories',
    summary: 'Catalogue areas for a dropdown',
    tag,
    access: 'public',
    response: list(option),
  }),
  subcategoryOptions: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/subcategories',
    summary: 'Subcategories, optionally of one area',
    tag,
    access: 'public',
    query: z.object({ categoryId: id.optional() }),
    response: list(subcategory),
  }),
  skillOptions: endpoint({
    method: 'GET',
    path: 'settings/dropdowns/skills',
    summary: 'Skills, optionally of one subcategory',
    tag,
    access: 'public',
    query: z.object({ subcategoryId: id.optional() }),
    response: list(option),
  }),
  searchSkills: endpoint({
    method: 'GET',
    path: 'settings/searchskills',
    summary: 'Skills whose name contains the term (at most 20)',
    tag,
    access: 'public',
    query: z.object({
      q: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'must not be empty')
        .max(60, 'must be at most 60 characters'),
    }),
    response: list(option),
  }),
  categories: endpoint({
    method: 'GET',
    path: 'categories',
    summary: 'Catalogue areas with name and image',
    tag: 'Catalogue',
    access: 'public',
    response: list(category),
  }),
  allCategories: endpoint({
    method: 'GET',
    path: 'settings/all-categories',
    summary: 'Every area with its subcategories and their skills',
    tag,
    access: 'public',
    response: list(categoryTree),
  }),
  allSkills: endpoint({
    method: 'GET',
    path: 'settings/all-skills',
    summary: 'Every skill',
    tag,
    access: 'public',
    response: list(option),
  }),
}
