import type { Selectable, SelectQueryBuilder } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest } from '#server/api/errors.ts'
import { Role } from '../identity/permissions.ts'

// Defined once in the API's errors; re-exported for this module's use cases.
export { badRequest }

// Small helpers every use case of the projects module shares.

export type ProjectRow = Selectable<Database['project']>
export type ProposalRow = Selectable<Database['proposal']>
export type ContractRow = Selectable<Database['contract']>
export type InstallmentRow = Selectable<Database['installment']>
/** One installment of a project's, a proposal's or a contract's payment plan. */
export type PlanItem = { title: string; amountMinor: number; dueDate?: string }
/** A page of a list, as every list endpoint takes it. */
export type PageQuery = { page: number; pageSize: number }

export const nowIso = () => new Date().toISOString()
export const DAY = 86_400_000

export const isClient = (c: Caller) => c.roles.includes(Role.Client) || c.roles.includes(Role.Company)
export const isFreelancer = (c: Caller) => c.roles.includes(Role.Freelancer)

/** A stored payment plan; a plan that cannot be read is an empty one. */
export const parsePlan = (text: string): PlanItem[] => {
  try {
    return JSON.parse(text) as PlanItem[]
  } catch {
    return []
  }
}

/** A state as a sentence says it ("in progress"). */
export const spoken = (state: string) => state.replace('_', ' ')

/** The offset of a page of a list. */
export const offsetOf = (query: PageQuery) => (query.page - 1) * query.pageSize

/** A list answer: the page's rows and how many there are in all. */
export const pageOf = <T>(data: T[], query: PageQuery, total: number | string | bigint | undefined) => ({
  data,
  page: query.page,
  pageSize: query.pageSize,
  total: Number(total ?? 0),
})

type Dated = 'project' | 'proposal' | 'contract' | 'review'

/** A page of what `q` finds, newest first (the id breaks a tie of times), as the table's own rows. */
export const newestRows = <T extends Dated>(q: SelectQueryBuilder<Database, T, object>, query: PageQuery) =>
  q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offsetOf(query))
    .limit(query.pageSize)
    .execute()

/** That page, and how many rows `q` finds in all. */
export async function newestPage<T extends Dated>(
  q: SelectQueryBuilder<Database, T, object>,
  query: PageQuery,
) {
  const [rows, total] = await Promise.all([
    newestRows(q, query),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return { rows, total: total?.n }
}
