import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { isConfirmed, notConfirmed } from '~/lib/confirm.server'
import type { Wording } from '~/lib/words'
import {
  changeOrderForm,
  changeOrdersContract as co,
  rejectionIn,
} from '#server/modules/projects/change-orders/contract.ts'
import { refused } from './actions.server'
import { wordContractValue } from './change-orders-ui'

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

/** The contract's value summary for its pages (null before there is a contract), its figures worded into `words`. */
export async function loadChangeOrders(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  hasContract: boolean,
  words: Wording,
) {
  if (!hasContract) return null
  const list = await apiFor(context).call(co.list, { params: { projectId } })
  wordContractValue(words, list)
  return list
}
