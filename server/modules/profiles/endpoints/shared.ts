import { z } from 'zod'
import { recordId } from '#server/api/contract.ts'

// What the profile endpoints share: a path's id, the plain answers, the tags of the API's documentation.
export const item = z.object({ id: recordId })
export const ok = z.object({ message: z.string() })
export const list = <T extends z.ZodType>(of: T) => z.object({ data: z.array(of) })
export const tags = {
  freelancer: 'Freelancer profile',
  client: 'Client profile',
  company: 'Company profile',
  payments: 'Payment methods',
  search: 'Find Freelancers',
} as const
