import { z } from 'zod'
import { endpoint, shownName } from '#server/api/contract.ts'
import { limits } from '../rules.ts'
import { searchHit } from '../schemas/outputs.ts'
import { searchQuery } from '../schemas/search.ts'
import { list } from './shared.ts'

/** Find Freelancers (clients and companies). */
export const searchEndpoints = {
  // Find Freelancers (clients and companies).
  search: endpoint({
    method: 'GET',
    path: 'freelancers/search',
    summary: 'Full-text search over title, overview and skills, with filters, sorting and paging',
    tag: 'Find Freelancers',
    access: 'user',
    query: searchQuery,
    response: z.object({
      data: z.array(searchHit),
      total: z.number(),
      capped: z.boolean().describe('true when there are more matches than total (the count stops at 1,000)'),
      page: z.number(),
      pageSize: z.number(),
      pages: z.number(),
    }),
  }),
  suggestions: endpoint({
    method: 'GET',
    path: 'freelancers/suggestions',
    summary: "Up to eight freelancers for the top bar's search suggestions",
    tag: 'Find Freelancers',
    access: 'user',
    query: z.object({
      q: z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'must not be empty')
        .max(limits.searchTerm, `must be at most ${limits.searchTerm} characters`),
    }),
    response: list(z.object({ userId: z.number(), name: shownName, title: z.string() })),
  }),

  searchFacets: endpoint({
    method: 'GET',
    path: 'freelancers/search/facets',
    summary:
      "The countries and languages that listed freelancers have, named in the caller's language, for the search filters",
    tag: 'Find Freelancers',
    access: 'user',
    response: z.object({
      countries: z.array(z.object({ code: z.string(), name: z.string() })),
      languages: z.array(z.object({ code: z.string(), name: z.string() })),
    }),
  }),
}
