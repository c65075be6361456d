import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { badRequest } from '#server/api/errors.ts'
import type { Gateway } from './gateways/gateway.ts'
import type { PayoutStatus } from './states.ts'

// Defined once in the API's errors; re-exported for this module's use cases.
export { badRequest }

// A payout's row and how it reads, shared by asking for a payout, settling it and reconciling it.

export const PAYMENTS_NOTIFY_TOPIC = 'payments.notify'

/** What the payouts are given (index.ts). */
export interface PayoutDeps {
  db: DB
  dialect: Dialect
  gateway: Gateway
  minimumMinor: number
  log?: (message: string, error: unknown) => void
}

export const nowIso = () => new Date().toISOString()

/** A withdrawal's ledger ref, and the payout a ref names (null for any other ref). */
export const payoutRef = (id: number) => `payout:${id}`
export const payoutOfRef = (ref: string | null) =>
  ref?.startsWith('payout:') ? Number(ref.slice('payout:'.length)) : null

export type PayoutRow = {
  id: number
  user_id: number
  payment_method_id: number | null
  status: string
  amount_minor: number
  currency: string
  gateway: string
  destination_kind: string
  destination_masked: string
  failure: string | null
  created_at: string
  updated_at: string
}

export const presentPayout = (p: PayoutRow) => ({
  id: p.id,
  status: p.status as PayoutStatus,
  amountMinor: Number(p.amount_minor),
  currency: p.currency,
  destinationKind: p.destination_kind as 'bank' | 'paypal',
  destination: p.destination_masked,
  failure: p.failure,
  createdAt: new Date(p.created_at).toISOString(),
  updatedAt: new Date(p.updated_at).toISOString(),
})

export const columns = [
  'id',
  'user_id',
  'payment_method_id',
  'status',
  'amount_minor',
  'currency',
  'gateway',
  'destination_kind',
  'destination_masked',
  'failure',
  'created_at',
  'updated_at',
] as const
