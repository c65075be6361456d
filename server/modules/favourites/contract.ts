import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { searchHit } from '../profiles/contract.ts'

// Saved freelancers (issue 41 item 4, decision 336): a client's or a company's favourites, the
// people counterpart of the projects' wishlist. Finding freelancers is the client side's, so a
// freelancer or an admin is told 403; each list is its owner's alone.
const tag = 'Saved freelancers'
const FAVOURITES_PAGE = 50
const params = z.object({ userId: recordId })
const ok = z.object({ ok: z.literal(true) })

export const favouritesContract = {
  list: endpoint({
    method: 'GET',
    path: 'freelancers/favourites',
    summary: "The caller's saved freelancers, newest saved first, as Find Freelancers shows them",
    tag,
    access: 'user',
    query: z.object({
      page: z.coerce.number().int().min(1).max(10_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(FAVOURITES_PAGE).default(20),
    }),
    response: z.object({
      data: z.array(searchHit),
      page: z.number(),
      pageSize: z.number(),
      total: z.number(),
    }),
  }),
  among: endpoint({
    method: 'GET',
    path: 'freelancers/favourites/ids',
    summary: 'Which of the given freelancers the caller has saved (for the Save buttons of a list)',
    tag,
    access: 'user',
    query: z.object({
      userIds: z
        .union([recordId, z.array(recordId)])
        .optional()
        .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
        .pipe(z.array(z.number()).max(FAVOURITES_PAGE, 'too many freelancers')),
    }),
    response: z.object({ data: z.array(z.number()) }),
  }),
  add: endpoint({
    method: 'PUT',
    path: 'freelancers/{userId}/favourite',
    summary: 'Saves a freelancer (saving one already saved changes nothing); an unknown freelancer is 404',
    tag,
    access: 'user',
    params,
    response: ok,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'freelancers/{userId}/favourite',
    summary: 'Unsaves a freelancer (one not saved changes nothing)',
    tag,
    access: 'user',
    params,
    response: ok,
  }),
}
