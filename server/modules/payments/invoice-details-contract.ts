import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'

// Invoice details (issue 39 item 5, decision 311): the legal name, billing address and VAT or tax
// id a person puts on the invoices issued by or to them, and a freelancer's VAT rate, entered once
// in account settings. The one input schema of the entity: the settings form parses it and the API
// reads it. Messages are keys of the `invoices` namespace (decision 302). Part of the payments API.
const tag = 'Payments'
const problem = (key: string) => `invoices:errors.${key}`

const required = (max: number) =>
  z
    .string({ error: problem('required') })
    .trim()
    .min(1, problem('required'))
    .max(max, problem('tooLong'))
const optional = (max: number) => z.string().trim().max(max, problem('tooLong')).optional()

/** A VAT or tax id as people type it ("DE 123.456-789"): kept as letters and digits only, 4 to 20 of them. */
const vatId = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s.-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^(|[A-Z0-9]{4,20})$/, problem('vatId')))
  .optional()

/** A VAT rate in percent with at most two decimals ("20", "7,7"); a blank form field is none. */
const vatRatePercent = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v.trim().replace(',', '.'))) : v),
  z
    .number({ error: problem('vatRate') })
    .min(0, problem('vatRate'))
    .max(50, problem('vatRate'))
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-9, problem('vatRate'))
    .nullable()
    .optional(),
)

export const invoiceDetailsInput = z.object({
  legalName: optional(120).describe("blank or left out: the account's own name (or its company's)"),
  addressLine1: required(100),
  addressLine2: optional(100),
  postcode: optional(12).pipe(
    z
      .string()
      .regex(/^(|[\p{L}\p{N}][\p{L}\p{N} -]*)$/u, problem('postcode'))
      .optional(),
  ),
  city: required(60),
  country: required(60),
  vatId: vatId.describe('letters and digits, 4 to 20 (spaces, dots and hyphens are dropped); blank: none'),
  vatRatePercent: vatRatePercent.describe(
    "a freelancer's VAT rate (0–50), taken as included in their prices; left out or null: they charge none",
  ),
})
export type InvoiceDetailsInput = z.output<typeof invoiceDetailsInput>

const invoiceDetails = z.object({
  legalName: z.string().describe('blank: the account name is used'),
  addressLine1: z.string(),
  addressLine2: z.string(),
  postcode: z.string(),
  city: z.string(),
  country: z.string(),
  vatId: z.string(),
  vatRatePercent: z.number().nullable(),
})
const invoiceDetailsAnswer = z.object({
  details: invoiceDetails.nullable().describe('null until the caller enters them'),
  defaultName: z.string().describe('the name invoices carry when the legal name is blank'),
})
export type InvoiceDetailsAnswer = z.output<typeof invoiceDetailsAnswer>

export const invoiceDetailsContract = {
  invoiceDetails: endpoint({
    method: 'GET',
    path: 'Payment/invoice-details',
    summary: "The caller's invoice details: legal name, billing address, VAT or tax id, VAT rate",
    tag,
    access: 'user',
    response: invoiceDetailsAnswer,
  }),
  saveInvoiceDetails: endpoint({
    method: 'PUT',
    path: 'Payment/invoice-details',
    summary:
      "Sets the caller's invoice details (all of them: a field left out is cleared); invoices already issued keep the details they were issued with",
    tag,
    access: 'user',
    body: invoiceDetailsInput,
    response: invoiceDetailsAnswer,
  }),
}
