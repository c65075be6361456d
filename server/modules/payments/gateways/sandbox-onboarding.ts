import { z } from 'zod'
import { notFound, validationError } from '#server/api/errors.ts'
import type { PaymentsService } from '../service.ts'
import { PAYOUT_DETAILS_PATH, type PayoutAccounts } from '../payout-accounts.ts'
import { NO_CURRENCY } from './gateway.ts'
import { sandboxEvent, SANDBOX, type SandboxGateway } from './sandbox.ts'
import { failingPayoutDestinations } from './test-cards.ts'

// The sandbox gateway's hosted onboarding (decision 333), as Stripe's would be: the freelancer
// names the account's holder and a bank account (any IBAN-shaped text; the documented failing one
// is refused by the "bank", so the account stays incomplete), and the sandbox sends the signed
// account.updated event that Payment/PaymentCallback applies. The account's id is the page's
// capability, as the checkout's token is.

/** The onboarding form, shared by the page and the gateway. */
export const onboardingForm = z.object({
  name: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(100, 'must be at most 100 characters'),
  iban: z
    .string({ error: 'is required' })
    .transform((v) => v.replace(/\s/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/, 'must be two letters, two digits, then letters and digits'),
    ),
})

export function createSandboxOnboarding({
  payments,
  gateway,
  accounts,
  open,
}: {
  payments: PaymentsService
  gateway: SandboxGateway
  accounts: PayoutAccounts
  /** whether the sandbox is the site's gateway */
  open: boolean
}) {
  async function session(accountRef: string) {
    const found = open ? await accounts.find(SANDBOX, accountRef) : null
    if (!found) throw notFound('Payout account')
    return { account: accountRef, status: found.status, returnUrl: PAYOUT_DETAILS_PATH }
  }
  return {
    session,
    /** The form sent: the account is submitted, and enabled unless the bank refuses the test IBAN. */
    async submit(accountRef: string, body: unknown) {
      await session(accountRef)
      const parsed = onboardingForm.safeParse(body)
      if (!parsed.success) throw validationError(parsed.error.issues, 'body')
      const refused = parsed.data.iban === failingPayoutDestinations.iban.replace(/\s/g, '')
      const event = sandboxEvent(await gateway.secret(), 'account.updated', {
        paymentToken: accountRef,
        amountMinor: 0,
        currency: NO_CURRENCY,
        detailsSubmitted: true,
        payoutsEnabled: !refused,
      })
      await payments.callback(SANDBOX, event.body, new Headers(event.headers))
      return session(accountRef)
    },
  }
}
export type SandboxOnboarding = ReturnType<typeof createSandboxOnboarding>
