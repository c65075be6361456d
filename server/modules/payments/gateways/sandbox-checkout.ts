import { ApiError, notFound, validationError } from '#server/api/errors.ts'
import type { PaymentsService } from '../service.ts'
import {
  cardForm,
  cardOutcome,
  sandboxEvent,
  savedMethodRef,
  SANDBOX,
  type SandboxGateway,
} from './sandbox.ts'

// The sandbox gateway's own side: the card form's outcome, the extra confirmation step, and the
// signed callback it sends. It hands the callback to the same function Payment/PaymentCallback
// calls (signature checked, deduplicated), so a sandbox payment confirms like any gateway's.
export function createSandboxCheckout({
  payments,
  gateway,
}: {
  payments: PaymentsService
  gateway: SandboxGateway
}) {
  async function session(token: string) {
    const s = await payments.checkoutSession(token)
    if (s.gateway !== SANDBOX) throw notFound('Payment')
    return s
  }

  async function send(
    s: Awaited<ReturnType<typeof session>>,
    type: 'payment.succeeded' | 'payment.failed' | 'payment.requires_action',
    failure?: string,
  ) {
    const event = sandboxEvent(await gateway.secret(), type, {
      paymentToken: s.token,
      amountMinor: s.totalMinor,
      currency: s.currency,
      failure,
    })
    await payments.callback(SANDBOX, event.body, new Headers(event.headers))
    return session(s.token)
  }

  const closed = (s: { status: string }) => {
    if (s.status === 'cancelled')
      throw new ApiError(
        409,
        'Conflict',
        'This checkout was replaced by a newer one or cancelled; start again from the contract',
      )
  }

  return {
    session,
    /** The card form: a test number that succeeds, one that is declined, one that needs confirming. */
    async pay(token: string, card: unknown) {
      const s = await session(token)
      if (s.status === 'succeeded') return s
      closed(s)
      const parsed = cardForm.safeParse(card)
      if (!parsed.success) throw validationError(parsed.error.issues, 'body')
      const { outcome, failure } = cardOutcome(parsed.data.cardNumber)
      // Kept only when it paid: a declined card is never charged again without the client.
      if (parsed.data.save && outcome === 'succeeded')
        await payments.saveMethod(
          token,
          savedMethodRef(parsed.data.cardNumber),
          `•••• ${parsed.data.cardNumber.slice(-4)}`,
        )
      return send(
        s,
        outcome === 'succeeded'
          ? 'payment.succeeded'
          : outcome === 'failed'
            ? 'payment.failed'
            : 'payment.requires_action',
        failure,
      )
    },
    /** The extra step (a bank's confirmation page): approve or decline. */
    async confirm(token: string, approve: boolean) {
      const s = await session(token)
      if (s.status === 'succeeded') return s
      closed(s)
      if (s.status !== 'requires_action')
        throw new ApiError(409, 'Conflict', 'This payment is not waiting for a confirmation')
      return approve ? send(s, 'payment.succeeded') : send(s, 'payment.failed', 'authentication_failed')
    },
  }
}
export type SandboxCheckout = ReturnType<typeof createSandboxCheckout>
