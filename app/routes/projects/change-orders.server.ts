import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { isConfirmed, notConfirmed } from '~/lib/confirm.server'
import { formatDate, formatMoney } from '~/lib/format'
import { getLocale } from '~/middleware/i18next'
import {
  changeOrderForm,
  changeOrdersContract as co,
  rejectionIn,
} from '#server/modules/projects/change-orders/contract.ts'
import { refused } from './actions.server'

// The change-order page's forms (decision 319), plain POSTs: propose (parsed with the contract's
// form schema, its errors under their fields), accept (only from its confirmation step, decision
// 310), reject with a reason, withdraw. Each redirects back with what happened.

/** The API names a change's fields `effects.0.amountMinor`; the form has one change, named `amountMinor`. */
const formFieldOf = (key: string) => (key === 'effects' ? '' : key.replace(/^effects\.\d+\.?/, ''))

export async function changeOrderAction(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  form: FormData,
  back: string,
) {
  const api = apiFor(context)
  const intent = String(form.get('intent') ?? '')
  const id = Number(form.get('id') ?? 0)
  const params = { projectId, changeOrderId: id }
  const done = (what: string, number: unknown) => redirect(`${back}?done=${what}&number=${Number(number)}`)
  try {
    if (intent === 'propose') {
      const submission = parseWithZod(form, { schema: changeOrderForm })
      if (submission.status !== 'success') return data({ propose: submission.reply() }, { status: 400 })
      try {
        const made = await api.call(co.propose, { params: { projectId }, body: submission.value })
        return done('proposed', made.number)
      } catch (error) {
        if (!(error instanceof ApiCallError) || error.status !== 400) throw error
        const fieldErrors = Object.fromEntries(
          Object.entries(error.fieldErrors).map(([k, v]) => [formFieldOf(k), v]),
        )
        return data({ propose: submission.reply({ fieldErrors }) }, { status: 400 })
      }
    }
    if (intent === 'reject') {
      const submission = parseWithZod(form, { schema: rejectionIn })
      if (submission.status !== 'success')
        return data({ reject: submission.reply(), rejectFor: id }, { status: 400 })
      const made = await api.call(co.reject, { params, body: submission.value })
      return done('rejected', made.number)
    }
    if (intent === 'withdraw') return done('withdrawn', (await api.call(co.withdraw, { params })).number)
    if (intent !== 'accept') return data({ notice: 'Unknown form' }, { status: 400 })
    // Accepting amends the contract and may give held money back: only from its confirmation step.
    if (!isConfirmed(form)) return notConfirmed(context)
    return done('accepted', (await api.call(co.accept, { params })).number)
  } catch (error) {
    return refused(error)
  }
}

interface Value {
  currency: string
  originalMinor: number
  approvedChangesMinor: number
  currentMinor: number
  deadline: string | null
}

/**
 * The value summary's amounts and deadline worded by the server, so the browser builds no
 * Intl formatter for them while the page hydrates (decision 362).
 */
export function wordedValue<V extends Value>(context: Readonly<RouterContextProvider>, v: V) {
  const lng = getLocale(context)
  const money = (minor: number) => formatMoney(minor, v.currency, lng)
  const approved = money(v.approvedChangesMinor)
  return {
    ...v,
    text: {
      original: money(v.originalMinor),
      approved: v.approvedChangesMinor > 0 ? `+${approved}` : approved,
      current: money(v.currentMinor),
      deadline: v.deadline ? formatDate(v.deadline, lng) : null,
    },
  }
}

/** The contract's value summary for its pages (null before there is a contract). */
export async function loadChangeOrders(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  hasContract: boolean,
) {
  if (!hasContract) return null
  return wordedValue(context, await apiFor(context).call(co.list, { params: { projectId } }))
}
