import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import type { Trx } from './ledger.ts'
import { ownName } from '../identity/display-name.ts'
import type { InvoiceDetailsAnswer, InvoiceDetailsInput } from './invoice-details-contract.ts'

// Invoice details (decision 311): what a person enters once in account settings, and the copy of
// a party an invoice keeps from the moment it is issued (a later edit changes only later invoices).

/** The platform's legal details from the configuration (PLATFORM_LEGAL_NAME…); blanks print nothing. */
export interface PlatformLegal {
  legalName: string
  address: string[]
  registration: string
  vatId: string
  /** the VAT included in the platform's fees, in basis points; null: the fee invoices carry no tax line */
  vatBps: number | null
}
export const noPlatformLegal: PlatformLegal = {
  legalName: '',
  address: [],
  registration: '',
  vatId: '',
  vatBps: null,
}

/** A party as an invoice prints it, copied at issue. */
export interface InvoiceParty {
  name: string
  address: string[]
  vatId: string
  registration: string
}

export const PLATFORM_NAME = 'Workneer'

export const platformParty = (p: PlatformLegal): InvoiceParty => ({
  name: p.legalName || PLATFORM_NAME,
  address: p.address,
  vatId: p.vatId,
  registration: p.registration,
})

const detailsOf = (db: DB | Trx, userIds: number[]) =>
  db.selectFrom('invoice_details').selectAll().where('user_id', 'in', userIds).execute()
type Row = Awaited<ReturnType<typeof detailsOf>>[number]

const addressOf = (r: Row) =>
  [r.address_line1, r.address_line2, `${r.postcode} ${r.city}`.trim(), r.country].filter(Boolean)

/** The parties' copies for an invoice: their details now, or their name alone when they entered none. */
export async function partiesNow(trx: Trx, people: Array<{ id: number; name: string }>) {
  const rows = await detailsOf(
    trx,
    people.map((p) => p.id),
  )
  return new Map(
    people.map((p) => {
      const r = rows.find((row) => row.user_id === p.id)
      const party: InvoiceParty = {
        name: r?.legal_name || p.name,
        address: r ? addressOf(r) : [],
        vatId: r?.vat_id ?? '',
        registration: '',
      }
      return [p.id, { party, vatBps: r?.vat_rate_bps ?? null }]
    }),
  )
}

async function answer(db: DB, caller: Caller): Promise<InvoiceDetailsAnswer> {
  const [user, [row]] = await Promise.all([
    db
      .selectFrom('app_user')
      .select(['first_name', 'last_name', 'company_name'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow(),
    detailsOf(db, [caller.userId]),
  ])
  return {
    defaultName: ownName(user),
    details: row
      ? {
          legalName: row.legal_name,
          addressLine1: row.address_line1,
          addressLine2: row.address_line2,
          postcode: row.postcode,
          city: row.city,
          country: row.country,
          vatId: row.vat_id,
          vatRatePercent: row.vat_rate_bps === null ? null : Number(row.vat_rate_bps) / 100,
        }
      : null,
  }
}

/** Sets every field of the caller's details (one row per person); only invoices issued later see them. */
async function save(db: DB, caller: Caller, input: InvoiceDetailsInput) {
  const values = {
    legal_name: input.legalName ?? '',
    address_line1: input.addressLine1,
    address_line2: input.addressLine2 ?? '',
    postcode: input.postcode ?? '',
    city: input.city,
    country: input.country,
    vat_id: input.vatId ?? '',
    vat_rate_bps: input.vatRatePercent == null ? null : Math.round(input.vatRatePercent * 100),
    updated_at: new Date().toISOString(),
  }
  await db
    .insertInto('invoice_details')
    .values({ user_id: caller.userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute()
  return answer(db, caller)
}

export function createInvoiceDetails({ db }: { db: DB }) {
  return {
    get: (caller: Caller) => answer(db, caller),
    save: (caller: Caller, input: InvoiceDetailsInput) => save(db, caller, input),
  }
}
export type InvoiceDetails = ReturnType<typeof createInvoiceDetails>
