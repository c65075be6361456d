import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { payoutStates } from './states.ts'

// Payments (docs/product.md §7: Payment/PayProjectInstallments, Payment/PaymentCallback, cost and paid
// details). The spec leaves the shapes open: a payment names the project and its installments,
// never an amount; `totalMinor`, when sent, is the total the client was shown, checked against
// the contract's (a different one answers 409 and changes nothing). The sandbox gateway's
// checkout is served here too (Payment/sandbox/{token}…), as a real gateway's hosted page would be.
const id = recordId
const ids = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(id).min(1, 'must name at least one installment').max(50, 'must name at most 50 installments'),
)
const token = z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'is not a checkout token')
const money = { amountMinor: z.number(), feeMinor: z.number(), totalMinor: z.number(), currency: z.string() }
const line = z.object({
  installmentId: z.number(),
  position: z.number(),
  title: z.string(),
  status: z.string(),
  amountMinor: z.number(),
  feeMinor: z.number(),
})
const accountRef = z.string().regex(/^sbx_acct_[0-9a-f]{24}$/, 'is not a sandbox account')
const payoutAccount = z.object({
  gateway: z.string(),
  status: z.enum(['not_set_up', 'incomplete', 'enabled']),
  paymentMethodId: z.number().nullable(),
  masked: z.string().nullable(),
  detailsSubmitted: z.boolean(),
})
const onboardingSession = z.object({
  account: z.string(),
  status: z.enum(['not_set_up', 'incomplete', 'enabled']),
  returnUrl: z.string(),
})
const paymentStatus = z.enum(['open', 'requires_action', 'failed', 'succeeded', 'cancelled'])
const tag = 'Payments'

export const payInput = z.object({
  projectId: id,
  installmentIds: ids,
  totalMinor: z
    .number({ error: 'must be a number' })
    .int('must be whole minor units')
    .nonnegative('must not be negative')
    .optional(),
})
export type PayInput = z.output<typeof payInput>

const quote = z.object({
  projectId: z.number(),
  contractId: z.number(),
  projectTitle: z.string(),
  lines: z.array(line),
  ...money,
  feePercent: z.number(),
})
export const checkoutSession = z.object({
  token: z.string(),
  gateway: z.string(),
  status: paymentStatus,
  failure: z.string().nullable(),
  ...money,
  projectId: z.number(),
  projectTitle: z.string(),
  returnUrl: z.string(),
})
const installmentMoney = z.object({
  installmentId: z.number(),
  position: z.number(),
  title: z.string(),
  status: z.string(),
  amountMinor: z.number(),
  clientFeeMinor: z.number(),
  platformFeeMinor: z.number(),
  paidMinor: z.number(),
  releasedMinor: z.number(),
  refundedMinor: z.number(),
})
const details = z.object({
  projectId: z.number(),
  contractId: z.number(),
  currency: z.string(),
  installments: z.array(installmentMoney),
  amountMinor: z.number(),
  paidMinor: z.number(),
  heldMinor: z.number(),
  releasedMinor: z.number(),
  platformFeesMinor: z.number(),
  refundedMinor: z.number(),
  clientFeePercent: z.number(),
  platformFeePercent: z.number(),
})
const payout = z.object({
  id: z.number(),
  status: z.enum(payoutStates),
  amountMinor: z.number(),
  currency: z.string(),
  destinationKind: z.enum(['bank', 'paypal', 'stripe_account']),
  destination: z.string(),
  failure: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Payout = z.output<typeof payout>

/** A withdrawal: whole minor units of one currency, to one of the caller's active payment methods (decision 185). */
export const payoutInput = z.object({
  amountMinor: z
    .number({ error: 'must be a number' })
    .int('must be whole minor units')
    .positive('must be positive')
    .max(1_000_000_000_000, 'is too large'),
  currency: z.string({ error: 'is required' }).regex(/^[A-Z]{3}$/, 'must be a three-letter currency code'),
  paymentMethodId: id,
})
export type PayoutInput = z.output<typeof payoutInput>

const balance = z.object({
  currency: z.string(),
  heldMinor: z.number(),
  availableMinor: z.number(),
  earnedMinor: z.number(),
  paidOutMinor: z.number(),
})

export const paymentsContract = {
  quote: endpoint({
    method: 'GET',
    path: 'Payment/PayProjectInstallments',
    summary: 'What paying these installments costs (amount, client fee, total), before paying',
    tag,
    access: 'user',
    query: z.object({ projectId: id, installmentIds: ids }),
    response: quote,
  }),
  pay: endpoint({
    method: 'POST',
    path: 'Payment/PayProjectInstallments',
    summary:
      "Pay installments of the caller's contract: records the payment and answers the gateway's checkout address; installments are funded when the gateway confirms",
    tag,
    access: 'user',
    body: payInput,
    response: quote.extend({
      paymentId: z.number(),
      token: z.string(),
      checkoutUrl: z.string(),
      status: paymentStatus,
    }),
  }),
  callback: endpoint({
    method: 'POST',
    path: 'Payment/PaymentCallback',
    summary:
      "A gateway's signed event (sandbox: header workneer-signature; ?gateway=stripe: a Stripe webhook, header stripe-signature); applied once per event id",
    tag,
    access: 'public',
    query: z.object({ gateway: z.string().max(40).default('sandbox') }),
    response: z.object({ received: z.boolean(), applied: z.boolean() }),
  }),
  costDetails: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/cost-details',
    summary:
      "The contract's installments with their amount, the client's fee and the platform's fee (client and freelancer of the contract)",
    tag,
    access: 'user',
    params: z.object({ projectId: id }),
    response: details,
  }),
  paidDetails: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/paid-details',
    summary: 'What was paid, is held and was released on the contract, read from the ledger',
    tag,
    access: 'user',
    params: z.object({ projectId: id }),
    response: details,
  }),
  balances: endpoint({
    method: 'GET',
    path: 'Payment/balances',
    summary: "The caller's money per currency: held for their contracts, available, earned, paid out",
    tag,
    access: 'user',
    response: z.object({ data: z.array(balance) }),
  }),
  payouts: endpoint({
    method: 'GET',
    path: 'Payment/payouts',
    summary:
      "The caller's payouts (newest first), what is available to withdraw per currency, and the payout minimum in minor units",
    tag,
    access: 'user',
    response: z.object({
      minimumMinor: z.number(),
      balances: z.array(z.object({ currency: z.string(), availableMinor: z.number() })),
      data: z.array(payout),
    }),
  }),
  payout: endpoint({
    method: 'POST',
    path: 'Payment/payouts',
    summary:
      "Withdraw available money to one of the caller's payment methods (at least the minimum, at most what is available); the sandbox pays at once, a failed payout returns the money to available",
    tag,
    access: 'user',
    body: payoutInput,
    response: payout,
  }),
  payoutAccount: endpoint({
    method: 'GET',
    path: 'Payment/payout-account',
    summary:
      "The freelancer's payout account at the gateway (decision 333): not set up, incomplete or enabled, as the gateway's signed account events report it",
    tag,
    access: 'user',
    response: payoutAccount,
  }),
  payoutOnboarding: endpoint({
    method: 'POST',
    path: 'Payment/payout-account',
    summary:
      "Set up payouts: opens the freelancer's connected account at the gateway once (Stripe: an Express account) and answers the address of the gateway's hosted onboarding, which sends the browser back to Payment Details",
    tag,
    access: 'user',
    response: z.object({ url: z.string() }),
  }),
  sandboxAccount: endpoint({
    method: 'GET',
    path: 'Payment/sandbox/accounts/{account}',
    summary: "Sandbox gateway: the hosted onboarding's payout account",
    tag,
    access: 'public',
    params: z.object({ account: accountRef }),
    response: onboardingSession,
  }),
  sandboxOnboard: endpoint({
    method: 'POST',
    path: 'Payment/sandbox/accounts/{account}',
    summary:
      "Sandbox gateway: the onboarding form (name, IBAN); the account is enabled, except with the test IBAN GB82 WEST 1234 5698 7654 32, which the sandbox's bank refuses",
    tag,
    access: 'public',
    params: z.object({ account: accountRef }),
    body: z.record(z.string(), z.unknown()),
    response: onboardingSession,
  }),
  sandboxSession: endpoint({
    method: 'GET',
    path: 'Payment/sandbox/{token}',
    summary: "Sandbox gateway: the hosted checkout's payment",
    tag,
    access: 'public',
    params: z.object({ token }),
    response: checkoutSession,
  }),
  sandboxPay: endpoint({
    method: 'POST',
    path: 'Payment/sandbox/{token}/pay',
    summary:
      'Sandbox gateway: pay with a test card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks for confirmation)',
    tag,
    access: 'public',
    params: z.object({ token }),
    body: z.record(z.string(), z.unknown()),
    response: checkoutSession,
  }),
  sandboxConfirm: endpoint({
    method: 'POST',
    path: 'Payment/sandbox/{token}/confirm',
    summary: 'Sandbox gateway: the extra confirmation step, approved or declined',
    tag,
    access: 'public',
    params: z.object({ token }),
    body: z.object({ approve: z.boolean({ error: 'must be true or false' }) }),
    response: checkoutSession,
  }),
}
