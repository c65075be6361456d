import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { projectsContract as c } from '../../../server/modules/projects/contract'
import { installmentActions } from '../../../server/modules/projects/rules'

/** A refused move becomes the page's notice (409 with the current state, 400 with its message); 401/403/404 follow SPEC §8. */
export function refused(error: unknown) {
  if (error instanceof ApiCallError && (error.status === 409 || error.status === 400) && typeof error.body === 'object') {
    return data({ notice: error.body.detail, fields: error.body.errors }, { status: error.status })
  }
  throwApiError(error)
}

/** The one-button moves shared by the project pages: each a plain POST with an intent. */
export async function simpleIntent(context: Readonly<RouterContextProvider>, projectId: number, form: FormData, back: string) {
  const api = apiFor(context)
  const intent = String(form.get('intent') ?? '')
  const id = Number(form.get('id') ?? 0)
  try {
    switch (intent) {
      case 'wish':
        await api.call(c.addWish, { params: { projectId } })
        break
      case 'unwish':
        await api.call(c.removeWish, { params: { projectId } })
        break
      case 'subscribe':
        await api.call(c.subscribe, { params: { projectId } })
        break
      case 'unsubscribe':
        await api.call(c.unsubscribe, { params: { projectId } })
        break
      case 'withdraw':
        await api.call(c.withdrawProposal, { params: { proposalId: id } })
        break
      case 'accept':
        await api.call(c.accept, { params: { proposalId: id, projectId } })
        break
      case 'reject':
        await api.call(c.reject, { params: { proposalId: id, projectId }, body: { reason: String(form.get('reason') ?? '') || undefined } })
        break
      case 'open':
      case 'cancelled':
      case 'completed':
        await api.call(c.updateState, { params: { projectId, state: intent } })
        break
      case 'delete':
        await api.call(c.remove, { params: { projectId } })
        return redirect('/projects/client')
      default: {
        const action = intent.replace(/^installment-/, '') as (typeof installmentActions)[number]
        if (!intent.startsWith('installment-') || !installmentActions.includes(action)) return null
        const note = String(form.get('note') ?? '').trim()
        await api.call(c.installmentAction, { params: { installmentId: id, action }, body: note ? { note } : {} })
      }
    }
  } catch (error) {
    return refused(error)
  }
  return redirect(back)
}
