import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { ProjectsService } from '../projects/service.ts'
import { userBalances, type Trx } from './ledger.ts'
import type { Fees } from './fees.ts'
import type { Gateway } from './gateways/gateway.ts'
import type { PayInput } from './contract.ts'
import { checkoutSession, pay, quote } from './checkout.ts'
import { callback, type GatewayEvents } from './callbacks.ts'
import { recordSavedCharge, saveMethod } from './saved-methods.ts'

export type { PaymentStatus } from './checkout.ts'

// Payments (issue 17): a client pays installments of a contract at a gateway; the money is held in
// the client's account once the gateway confirms, and moves to the freelancer when the client
// approves (release.ts). Every movement is a ledger posting (ledger.ts); checkout.ts and
// callbacks.ts decide which and when. Amounts always come from the contract, never from the
// request (decisions 172 and 173).
export function createPaymentsService(deps: {
  db: DB
  dialect: Dialect
  fees: Fees
  gateways: Record<string, Gateway>
  work: Pick<ProjectsService, 'contractForPayment' | 'fundInstallments' | 'releaseApprovedHours'>
  /** Refund events go to the refunds (refunds.ts applyEvent). */
  refundEvents?: GatewayEvents
  /** Payout events go to the payouts (payouts.ts applyEvent). */
  payoutEvents?: GatewayEvents
  /** Connected accounts' events go to the payout accounts (payout-accounts.ts applyAccountEvent). */
  accountEvents?: GatewayEvents
}) {
  return {
    quote: (caller: Caller, projectId: number, installmentIds: number[]) =>
      quote(deps, caller, projectId, installmentIds),
    pay: (caller: Caller, input: PayInput) => pay(deps, caller, input),
    callback: (gatewayName: string, rawBody: string, headers: Headers) =>
      callback(deps, gatewayName, rawBody, headers),
    checkoutSession: (token: string) => checkoutSession(deps.db, token),
    /** Keeps the card a checkout paid with for charges without the client (decision 324). */
    saveMethod: (token: string, methodRef: string, label: string) =>
      saveMethod(deps.db, token, methodRef, label),
    /**
     * Records the charge of installments awaiting funding to the client's saved card in the caller's
     * transaction (without one, tells them to pay at checkout); answers what charges it after the commit.
     */
    recordSavedCharge: (trx: Trx, input: { clientId: number; projectId: number; installmentIds: number[] }) =>
      recordSavedCharge(
        { ...deps, applyEvent: (gateway, body, headers, ref) => callback(deps, gateway, body, headers, ref) },
        trx,
        input,
      ),
    /** The caller's money per currency (held as a client; available and earned as a freelancer). */
    balances: async (caller: Caller) => ({ data: await userBalances(deps.db, caller.userId) }),
  }
}

export type PaymentsService = ReturnType<typeof createPaymentsService>
