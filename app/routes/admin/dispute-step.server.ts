import type { RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { formatMoney } from '~/lib/format'
import { getInstance } from '~/middleware/i18next'
import { complaintsContract as c } from '#server/modules/complaints/contract.ts'

// Deciding a dispute moves the money held (decision 310): the decision form's first POST is
// answered with a step that names what goes back to the client and what is released to the
// freelancer, computed from what is held now; only the step's own form decides.

/** The step's question for this decision, or why there is none (an amount outside what is held, a dispute already decided). */
export async function decisionQuestion(
  context: Readonly<RouterContextProvider>,
  complaintId: number,
  v: { outcome: 'release' | 'refund' | 'split'; refundMinor?: number },
): Promise<{ question: string } | { error: 'amount' | 'conflict' }> {
  const { t, language } = getInstance(context)
  const { dispute } = await apiFor(context).call(c.adminGet, { params: { complaintId } })
  if (!dispute || dispute.status !== 'held') return { error: 'conflict' }
  const held = dispute.heldMinor
  const refund = v.outcome === 'refund' ? held : v.outcome === 'release' ? 0 : (v.refundMinor ?? 0)
  if (v.outcome === 'split' && (refund < 1 || refund >= held)) return { error: 'amount' }
  const money = (minor: number) => formatMoney(minor, dispute.currency, language)
  return {
    question: t(`disputes:decide.confirm.${v.outcome}`, {
      refund: money(refund),
      release: money(held - refund),
    }),
  }
}
