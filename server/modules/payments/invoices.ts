import type { DB } from '#server/db/database.ts'
import type { Caller } from '#server/api/handler.ts'
import { notFound } from '#server/api/errors.ts'
import type { Trx } from './ledger.ts'
import type { StatementQuery } from './invoices-contract.ts'
import { deletedName, ownName } from '../identity/display-name.ts'
import { statement } from './statements.ts'
import {
  noPlatformLegal,
  partiesNow,
  PLATFORM_NAME,
  platformParty,
  type InvoiceParty,
  type PlatformLegal,
} from './invoice-details.ts'

// Invoices and statements (issue 17 item 7, decisions 190–193). A release issues up to three
// invoices in its own ledger transaction: the freelancer's to the client for the work (the
// installment's amount), the platform's to the client for its service fee, and the platform's to
// the freelancer for its commission. Numbers are WN-<year>-<six digits>, without gaps per year:
// the year's counter row is moved in the same transaction, so a rolled-back release gives its
// numbers back and two releases never get the same one. A statement is every ledger entry of the
// caller's accounts, oldest first, with the running balance of their money per currency.
// Each invoice keeps a copy of its parties' details, the platform's legal details and its tax line
// as they were at issue (decision 311).

export const INVOICE_PAGE = 20
export const STATEMENT_PAGE = 50
export type InvoiceKind = 'service' | 'client_fee' | 'platform_fee'

export interface ReleaseInvoices {
  transactionId: number
  contractId: number
  installmentId: number
  clientId: number
  freelancerId: number
  currency: string
  amountMinor: number
  clientFeeMinor: number
  platformFeeMinor: number
}

export const invoiceNumber = (year: number, sequence: number) =>
  `WN-${year}-${String(sequence).padStart(6, '0')}`

/**
 * Takes `count` consecutive numbers of the year, in one statement (the year's first makes its row);
 * the counter row stays locked until the caller's transaction ends.
 */
async function takeNumbers(trx: Trx, year: number, count: number) {
  const row = await trx
    .insertInto('invoice_counter')
    .values({ year, last_number: count })
    .onConflict((oc) =>
      oc.column('year').doUpdateSet((eb) => ({
        last_number: eb('invoice_counter.last_number', '+', count),
      })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return Number(row.last_number) - count + 1
}

/**
 * The VAT inside a price that includes it (decision 311): prices and fees are what was paid, so an
 * invoice's tax line is the part of that amount the rate accounts for, rounded to the minor unit.
 */
export const includedTax = (grossMinor: number, rateBps: number) =>
  grossMinor - Math.round((grossMinor * 10_000) / (10_000 + rateBps))

/** Issues a release's invoices inside its ledger transaction (call it only when the release was posted). */
export async function issueReleaseInvoices(
  trx: Trx,
  r: ReleaseInvoices,
  platform: PlatformLegal = noPlatformLegal,
) {
  const what = await trx
    .selectFrom('installment as i')
    .innerJoin('contract as c', 'c.id', 'i.contract_id')
    .innerJoin('project as p', 'p.id', 'c.project_id')
    .select(['i.title as installmentTitle', 'p.title as projectTitle'])
    .where('i.id', '=', r.installmentId)
    .executeTakeFirstOrThrow()
  const people = await trx
    .selectFrom('app_user')
    .select(['id', 'first_name', 'last_name', 'company_name'])
    .where('id', 'in', [r.clientId, r.freelancerId])
    .execute()
  // The names as they are now, kept as issued (decision 236); a deleted account's is blank (shape).
  const name = (id: number) => ownName(people.find((p) => p.id === id)!)
  const parties = await partiesNow(
    trx,
    people.map((p) => ({ id: p.id, name: ownName(p) })),
  )
  const seller = platformParty(platform)
  const partyOf = (id: number | null) => (id === null ? seller : parties.get(id)!.party)
  // The freelancer's work carries their VAT rate when they gave one; the platform's fees its own.
  const rateOf = (issuer: number | null) => (issuer === null ? platform.vatBps : parties.get(issuer)!.vatBps)
  const drafts: Array<{
    kind: InvoiceKind
    issuer: number | null
    recipient: number | null
    amountMinor: number
  }> = [
    { kind: 'service', issuer: r.freelancerId, recipient: r.clientId, amountMinor: r.amountMinor },
    { kind: 'client_fee', issuer: null, recipient: r.clientId, amountMinor: r.clientFeeMinor },
    { kind: 'platform_fee', issuer: null, recipient: r.freelancerId, amountMinor: r.platformFeeMinor },
  ].filter((d) => d.amountMinor > 0) as typeof drafts
  const issuedAt = new Date()
  const year = issuedAt.getUTCFullYear()
  const first = await takeNumbers(trx, year, drafts.length)
  await trx
    .insertInto('invoice')
    .values(
      drafts.map((d, n) => {
        const rate = rateOf(d.issuer)
        return {
          number: invoiceNumber(year, first + n),
          year,
          sequence: first + n,
          kind: d.kind,
          issuer_user_id: d.issuer,
          issuer_name: d.issuer === null ? PLATFORM_NAME : name(d.issuer),
          recipient_user_id: d.recipient,
          recipient_name: d.recipient === null ? PLATFORM_NAME : name(d.recipient),
          contract_id: r.contractId,
          installment_id: r.installmentId,
          transaction_id: r.transactionId,
          project_title: what.projectTitle,
          installment_title: what.installmentTitle,
          amount_minor: d.amountMinor,
          currency: r.currency,
          issued_at: issuedAt.toISOString(),
          issuer_details: JSON.stringify(partyOf(d.issuer)),
          recipient_details: JSON.stringify(partyOf(d.recipient)),
          platform_details: JSON.stringify(seller),
          tax_rate_bps: rate,
          tax_minor: rate === null ? null : includedTax(d.amountMinor, rate),
        }
      }),
    )
    .execute()
}

const invoiceColumns = [
  'v.id',
  'v.number',
  'v.kind',
  'v.issuer_user_id',
  'v.issuer_name',
  'v.recipient_user_id',
  'v.recipient_name',
  'v.project_title',
  'v.installment_title',
  'v.amount_minor',
  'v.currency',
  'v.issued_at',
  'v.issuer_details',
  'v.recipient_details',
  'v.platform_details',
  'v.tax_rate_bps',
  'v.tax_minor',
  'c.project_id',
] as const

/** A party's copy as issued, named as the invoice names them when the copy's name is blank (a deleted account). */
function partyCopy(json: string | null, shown: string): InvoiceParty | null {
  if (!json) return null
  const party = JSON.parse(json) as InvoiceParty
  return { ...party, name: party.name || shown }
}

/** An invoice as one of its parties reads it. */
const shape = (
  caller: Caller,
  v: {
    id: number
    number: string
    kind: string
    issuer_user_id: number | null
    issuer_name: string
    recipient_user_id: number | null
    recipient_name: string
    project_title: string
    installment_title: string
    amount_minor: number
    currency: string
    issued_at: string
    issuer_details: string | null
    recipient_details: string | null
    platform_details: string | null
    tax_rate_bps: number | null
    tax_minor: number | null
    project_id: number
  },
) => ({
  id: v.id,
  number: v.number,
  kind: v.kind as InvoiceKind,
  role: v.issuer_user_id === caller.userId ? ('issuer' as const) : ('recipient' as const),
  issuerName: v.issuer_name || deletedName(),
  issuerIsPlatform: v.issuer_user_id === null,
  recipientName: v.recipient_name || deletedName(),
  projectId: v.project_id,
  projectTitle: v.project_title,
  installmentTitle: v.installment_title,
  amountMinor: Number(v.amount_minor),
  currency: v.currency,
  issuedAt: new Date(v.issued_at).toISOString(),
  issuer: partyCopy(v.issuer_details, v.issuer_name || deletedName()),
  recipient: partyCopy(v.recipient_details, v.recipient_name || deletedName()),
  platform: partyCopy(v.platform_details, PLATFORM_NAME),
  tax:
    v.tax_rate_bps === null
      ? null
      : { ratePercent: Number(v.tax_rate_bps) / 100, amountMinor: Number(v.tax_minor) },
})

const mine = (db: DB, caller: Caller) =>
  db
    .selectFrom('invoice as v')
    .innerJoin('contract as c', 'c.id', 'v.contract_id')
    .select(invoiceColumns)
    .where((eb) =>
      eb.or([eb('v.issuer_user_id', '=', caller.userId), eb('v.recipient_user_id', '=', caller.userId)]),
    )

/** The caller's invoices (issued by or to them), newest first, a page at a time. */
export async function listInvoices(db: DB, caller: Caller, page: number) {
  const [rows, count] = await Promise.all([
    mine(db, caller)
      .orderBy('v.id', 'desc')
      .limit(INVOICE_PAGE + 1)
      .offset((page - 1) * INVOICE_PAGE)
      .execute(),
    db
      .selectFrom('invoice')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([eb('issuer_user_id', '=', caller.userId), eb('recipient_user_id', '=', caller.userId)]),
      )
      .executeTakeFirstOrThrow(),
  ])
  return {
    data: rows.slice(0, INVOICE_PAGE).map((v) => shape(caller, v)),
    page,
    pageSize: INVOICE_PAGE,
    total: Number(count.n),
    hasNext: rows.length > INVOICE_PAGE,
  }
}

/** One invoice, for its parties only: anyone else is told it does not exist. */
export async function invoiceOf(db: DB, caller: Caller, id: number) {
  const v = await mine(db, caller).where('v.id', '=', id).executeTakeFirst()
  if (!v) throw notFound('Invoice')
  return shape(caller, v)
}

export function createInvoices({ db }: { db: DB }) {
  return {
    list: (caller: Caller, page: number) => listInvoices(db, caller, page),
    get: (caller: Caller, id: number) => invoiceOf(db, caller, id),
    statement: (caller: Caller, q: StatementQuery) => statement(db, caller, q),
  }
}

export type Invoices = ReturnType<typeof createInvoices>
