import type { Generated } from 'kysely'

// Payments (issue 17): the ledger, payments at gateways, gateway events applied (migration 0023).
export type LedgerAccountTable = {
  id: Generated<number>
  kind: string
  owner: string
  user_id: number | null
  currency: string
  balance_minor: Generated<number>
  created_at: string
}
export type LedgerTransactionTable = {
  id: Generated<number>
  kind: string
  ref: string
  contract_id: number | null
  installment_id: number | null
  payment_id: number | null
  reverses_id: number | null
  memo: string | null
  created_at: string
}
export type LedgerEntryTable = {
  id: Generated<number>
  transaction_id: number
  account_id: number
  amount_minor: number
  currency: string
}
export type PaymentTable = {
  id: Generated<number>
  token: string
  client_id: number
  contract_id: number
  gateway: string
  gateway_ref: string | null
  status: string
  amount_minor: number
  fee_minor: number
  total_minor: number
  currency: string
  failure: string | null
  applied: Generated<number>
  created_at: string
  updated_at: string
}
export type PaymentInstallmentTable = {
  payment_id: number
  installment_id: number
  amount_minor: number
  fee_minor: number
  applied: Generated<number>
}
export type GatewayEventTable = {
  gateway: string
  event_id: string
  type: string
  payment_id: number | null
  received_at: string
}
// Refund requests (issue 17 item 5, migration 0024).
export type RefundRequestTable = {
  id: Generated<number>
  installment_id: number
  active_installment_id: number | null
  contract_id: number
  project_id: number
  payment_id: number
  client_id: number
  freelancer_id: number
  status: string
  amount_minor: number
  fee_minor: Generated<number>
  currency: string
  reason: string
  decline_reason: string | null
  respond_by: string
  gateway_status: string | null
  gateway_ref: string | null
  decided_by: number | null
  decision_note: string | null
  /** The complaint that opened this dispute (decision 230), null for a client's refund request. */
  complaint_id: number | null
  /** When support is to have decided the dispute (decision 313); set when its money is held. */
  decide_by: string | null
  created_at: string
  updated_at: string
}
// Invoices (issue 17 item 7): one per release and fee, numbered without gaps per year (migration 0026).
export type InvoiceCounterTable = { year: number; last_number: number }
export type InvoiceTable = {
  id: Generated<number>
  number: string
  year: number
  sequence: number
  kind: string
  issuer_user_id: number | null
  issuer_name: string
  recipient_user_id: number | null
  recipient_name: string
  contract_id: number
  installment_id: number
  transaction_id: number
  project_title: string
  installment_title: string
  amount_minor: number
  currency: string
  issued_at: string
  // Copies taken at issue (migration 0038, decision 311): JSON text, null on invoices issued before.
  issuer_details: string | null
  recipient_details: string | null
  platform_details: string | null
  tax_rate_bps: number | null
  tax_minor: number | null
}
// What a person puts on their invoices (migration 0038, decision 311).
export type InvoiceDetailsTable = {
  user_id: number
  legal_name: string
  address_line1: string
  address_line2: string
  postcode: string
  city: string
  country: string
  vat_id: string
  vat_rate_bps: number | null
  updated_at: string
}
// Payouts (issue 17 item 6, migration 0025).
export type PayoutTable = {
  id: Generated<number>
  user_id: number
  payment_method_id: number | null
  destination_kind: 'bank' | 'paypal' | 'stripe_account'
  destination_masked: string
  gateway: string
  gateway_ref: string | null
  status: 'requested' | 'paid' | 'failed'
  amount_minor: number
  currency: string
  failure: string | null
  created_at: string
  updated_at: string
}

export interface PaymentsTables {
  ledger_account: LedgerAccountTable
  ledger_transaction: LedgerTransactionTable
  ledger_entry: LedgerEntryTable
  payment: PaymentTable
  payment_installment: PaymentInstallmentTable
  gateway_event: GatewayEventTable
  refund_request: RefundRequestTable
  invoice_counter: InvoiceCounterTable
  invoice: InvoiceTable
  invoice_details: InvoiceDetailsTable
  payout: PayoutTable
  saved_payment_method: SavedPaymentMethodTable
  gateway_customer: GatewayCustomerTable
}

/** A payment method a client saved with a gateway for charges without them (migration 0043, decision 324). */
export type SavedPaymentMethodTable = {
  id: Generated<number>
  client_id: number
  gateway: string
  customer_ref: string | null
  method_ref: string
  label: string
  created_at: string
}

/** A client's customer at a gateway that keeps saved cards under one (Stripe; migration 0051, decision 334). */
export type GatewayCustomerTable = {
  id: Generated<number>
  client_id: number
  gateway: string
  customer_ref: string
  created_at: string
}
