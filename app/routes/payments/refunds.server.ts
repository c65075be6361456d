import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { apiFor, ApiCallError } from '~/lib/api.server'
import {
  refundDeclineForm,
  refundRequestForm,
  refundsContract as r,
} from '#server/modules/payments/refunds-contract.ts'
import { parseAmount } from '#server/modules/projects/rules.ts'
import { refused } from '../projects/actions.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'

// The refund forms' server side, shared by the client's project page and the freelancer's contract
// page (plain POSTs, then a redirect back to the page's refunds section with what happened).
export const refundIntents = ['refund-request', 'refund-accept', 'refund-decline', 'refund-dispute'] as const

/** A contract's refund requests for its page (null before there is a contract). */
export async function loadRefunds(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  hasContract: boolean,
) {
  return hasContract ? apiFor(context).call(r.list, { params: { projectId } }) : null
}

/** Handles one refund form; null when the intent is not a refund one. */
export async function refundIntent(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  form: FormData,
  back: string,
) {
  const intent = String(form.get('intent') ?? '')
  if (!(refundIntents as readonly string[]).includes(intent)) return null
  const api = apiFor(context)
  const done = (what: string) => redirect(`${back}?refund=${what}#refunds`)
  try {
    if (intent === 'refund-request') {
      const submission = parseWithZod(form, { schema: refundRequestForm })
      if (submission.status !== 'success')
        return data(
          { refund: submission.reply(), refundFor: `request-${String(form.get('installmentId'))}` },
          { status: 400 },
        )
      const v = submission.value
      // Asking for money back is confirmed on a step that names the amount typed (decision 310).
      if (unconfirmed('refund', intent, form)) {
        // The step asks only about what can be asked back: more than is held is named first.
        const { refundable } = await api.call(r.list, { params: { projectId } })
        const held = refundable.find((x) => x.installmentId === v.installmentId)?.refundableMinor ?? 0
        if ((parseAmount(v.amount) ?? 0) > held)
          return data(
            {
              refund: submission.reply({ fieldErrors: { amount: ['refunds:errors.aboveHeld'] } }),
              refundFor: `request-${v.installmentId}`,
            },
            { status: 400 },
          )
        return data({
          refundConfirm: { installmentId: v.installmentId, amount: v.amount, reason: v.reason },
          refundFor: `request-${v.installmentId}`,
        })
      }
      try {
        await api.call(r.request, {
          params: { projectId, installmentId: v.installmentId, amount: parseAmount(v.amount) ?? 0 },
          body: { reason: v.reason },
        })
      } catch (error) {
        // What the API refuses on a field (more than is held) stands under that field.
        if (error instanceof ApiCallError && error.status === 400 && Object.keys(error.fieldErrors).length)
          return data(
            {
              refund: submission.reply({ fieldErrors: error.fieldErrors }),
              refundFor: `request-${v.installmentId}`,
            },
            { status: 400 },
          )
        throw error
      }
      return done('requested')
    }
    if (intent === 'refund-decline') {
      const submission = parseWithZod(form, { schema: refundDeclineForm })
      if (submission.status !== 'success')
        return data(
          { refund: submission.reply(), refundFor: `decline-${String(form.get('requestId'))}` },
          { status: 400 },
        )
      await api.call(r.decline, {
        params: { requestId: submission.value.requestId },
        body: { reason: submission.value.reason },
      })
      return done('declined')
    }
    const requestId = Number(form.get('requestId'))
    // Accepting returns money; a dispute freezes it until an admin decides: both ask first.
    if (unconfirmed('refund', intent, form)) return notConfirmed(context)
    if (intent === 'refund-accept') {
      await api.call(r.accept, { params: { requestId } })
      return done('accepted')
    }
    await api.call(r.dispute, { params: { requestId } })
    return done('disputed')
  } catch (error) {
    return refused(error)
  }
}
