import { afterAll, beforeAll } from 'vitest'
import type { TestDialect } from '../../integration/databases.ts'
import { standInEnv, startStripeStandIn } from '../stripe-stand-in.ts'
import { usePayments } from './payments.ts'

// A describe block's payments taken by Stripe (decision 195): the stand-in on the loopback, the API
// configured for it, and a webhook sender that posts a signed event to the real callback.
export type StandIn = Awaited<ReturnType<typeof startStripeStandIn>>

export function useStripePayments(dialect: TestDialect) {
  let stand: StandIn | undefined
  beforeAll(async () => {
    stand = await startStripeStandIn()
  })
  afterAll(() => stand?.stop())
  const s = usePayments(dialect, () => standInEnv(stand!.base))
  /** Delivers a signed Stripe event to Payment/PaymentCallback, as Stripe's webhooks do. */
  const send = async (w: { body: string; headers: Record<string, string> }) => {
    const r = await s.t.raw('POST', 'Payment/PaymentCallback?gateway=stripe', {
      body: w.body,
      headers: w.headers,
    })
    return { status: r.status, json: await r.json() }
  }
  return { s, stand: () => stand!, send }
}
