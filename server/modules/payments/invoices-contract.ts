import { z } from 'zod'
import { MAX_DB_INTEGER, endpoint, recordId, shownName } from '#server/api/contract.ts'

// Invoices and statements (issue 17 item 7, docs/product.md §2 `invoices`, `statements`): the caller's
// invoices (a page of 20, newest first) and one of them; the caller's statement between two UTC
// days, both included (`from`, `to` as YYYY-MM-DD; `to` not before `from`), a page at a time
// (`page`, or `after` an entry id: the CSV export's cursor). Amounts are signed minor units: money
// in is positive. Part of the payments API (tag Payments).
const tag = 'Payments'
const id = recordId
const page = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(10_000, 'is too large')
  .default(1)
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'is not a real date',
  )
// An empty field of the filter form means no bound.
const optionalDay = z.preprocess((v) => (v === '' ? undefined : v), day.optional())

export const statementQuery = z
  .object({
    from: optionalDay,
    to: optionalDay,
    page,
    after: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .nonnegative('must not be negative')
      .max(MAX_DB_INTEGER, 'is not a known entry')
      .optional(),
    pageSize: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(1000, 'must be at most 1000')
      .default(50),
  })
  .refine((q) => !q.from || !q.to || q.to >= q.from, {
    path: ['to'],
    message: 'must not be before the start date',
  })
export type StatementQuery = z.output<typeof statementQuery>

export const invoiceKinds = ['service', 'client_fee', 'platform_fee'] as const
// A party as the invoice was issued with it (decision 311); null on invoices issued before.
const party = z
  .object({
    name: z.string(),
    address: z.array(z.string()).describe('lines, the postcode and city on one of them'),
    vatId: z.string().describe('blank: none given'),
    registration: z.string().describe("the platform's company registration; blank for a person"),
  })
  .nullable()
const invoice = z.object({
  id: z.number(),
  number: z.string(),
  kind: z.enum(invoiceKinds),
  role: z.enum(['issuer', 'recipient']),
  issuerName: shownName,
  issuerIsPlatform: z.boolean(),
  recipientName: shownName,
  projectId: z.number(),
  projectTitle: z.string(),
  installmentTitle: z.string(),
  amountMinor: z.number(),
  currency: z.string(),
  issuedAt: z.string(),
  issuer: party,
  recipient: party,
  platform: party.describe("the platform's legal details at issue"),
  tax: z
    .object({ ratePercent: z.number(), amountMinor: z.number() })
    .nullable()
    .describe('the VAT included in amountMinor; null: no tax line'),
})
export type Invoice = z.output<typeof invoice>
const movement = z.object({
  id: z.number(),
  at: z.string(),
  movement: z.string(),
  account: z.string(),
  projectId: z.number().nullable(),
  projectTitle: z.string().nullable(),
  installmentTitle: z.string().nullable(),
  amountMinor: z.number(),
  priceMinor: z
    .number()
    .nullable()
    .describe("a release: the installment's price (the amount is it less or plus the fee)"),
  feeMinor: z
    .number()
    .nullable()
    .describe('a release: the fee taken from it (freelancer) or paid on it (client)'),
  withdrawal: z
    .enum(['pending', 'paid', 'returned'])
    .nullable()
    .describe('a withdrawal: on its way to the bank, paid by it, or returned to the available balance'),
  currency: z.string(),
  balanceMinor: z.number(),
})
export type Movement = z.output<typeof movement>

export const invoicesContract = {
  invoices: endpoint({
    method: 'GET',
    path: 'Payment/invoices',
    summary: "The caller's invoices, issued by or to them, newest first (20 a page)",
    tag,
    access: 'user',
    query: z.object({ page }),
    response: z.object({
      data: z.array(invoice),
      page: z.number(),
      pageSize: z.number(),
      total: z.number(),
      hasNext: z.boolean(),
    }),
  }),
  invoice: endpoint({
    method: 'GET',
    path: 'Payment/invoices/{invoiceId}',
    summary: 'One invoice; only its issuer and recipient may read it (404 for anyone else)',
    tag,
    access: 'user',
    params: z.object({ invoiceId: id }),
    response: invoice,
  }),
  statement: endpoint({
    method: 'GET',
    path: 'Payment/statements',
    summary:
      "Every movement of the caller's money between two days, oldest first, with the running balance per currency",
    tag,
    access: 'user',
    query: statementQuery,
    response: z.object({
      data: z.array(movement),
      page: z.number(),
      pageSize: z.number(),
      total: z.number().nullable().describe('movements in the dates asked (null when paging by `after`)'),
      hasNext: z.boolean(),
      next: z.number().nullable(),
    }),
  }),
}
