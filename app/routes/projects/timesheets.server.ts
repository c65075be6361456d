import { data, redirect, type RouterContextProvider } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { disputeIn, entryIn, timesheetsContract as ts } from '#server/modules/projects/timesheets/contract.ts'
import { refused } from './actions.server'

// The timesheet page's forms (decision 324), plain POSTs: add or change an entry (parsed with the
// entry's schema, the API's refusals under their fields), remove one, submit the week, approve it
// (only from its confirmation step: it becomes money the client owes) or dispute it with a reason.
// Each redirects back to the week with what happened.

/** The entry form's values as the API takes them (the form's hours, not the parsed quarter hours). */
const entryBody = (v: { date: string; quarters: number; description: string; deliverableId?: number }) => ({
  date: v.date,
  hours: v.quarters / 4,
  description: v.description,
  deliverableId: v.deliverableId,
})

async function saveEntry(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  form: FormData,
  back: (week: string, done: string) => Response,
) {
  const id = Number(form.get('id') ?? 0)
  const key = id ? `entry-${id}` : 'entry'
  const submission = parseWithZod(form, { schema: entryIn })
  const answer = (reply: unknown) => data({ [key]: reply, formId: key }, { status: 400 })
  if (submission.status !== 'success') return answer(submission.reply())
  const body = entryBody(submission.value)
  try {
    const api = apiFor(context)
    if (id) await api.call(ts.change, { params: { projectId, entryId: id }, body })
    else await api.call(ts.add, { params: { projectId }, body })
    return back(body.date, id ? 'changed' : 'added')
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status !== 400) throw error
    return answer(submission.reply({ fieldErrors: error.fieldErrors }))
  }
}

export async function timesheetAction(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  form: FormData,
) {
  const api = apiFor(context)
  const intent = String(form.get('intent') ?? '')
  const week = String(form.get('week') ?? '')
  const weekId = Number(form.get('weekId') ?? 0)
  const back = (day: string, done: string) =>
    redirect(`/projects/timesheets/${projectId}?week=${encodeURIComponent(day)}&done=${done}#week`)
  try {
    if (intent === 'add' || intent === 'change') return await saveEntry(context, projectId, form, back)
    if (intent === 'remove') {
      await api.call(ts.remove, { params: { projectId, entryId: Number(form.get('id') ?? 0) } })
      return back(week, 'removed')
    }
    const params = { projectId, weekId }
    if (intent === 'submit') {
      await api.call(ts.submit, { params })
      return back(week, 'submitted')
    }
    if (intent === 'dispute') {
      const submission = parseWithZod(form, { schema: disputeIn })
      if (submission.status !== 'success')
        return data({ dispute: submission.reply(), formId: 'dispute' }, { status: 400 })
      await api.call(ts.dispute, { params, body: submission.value })
      return back(week, 'disputed')
    }
    if (intent !== 'approve') return data({ notice: 'Unknown form' }, { status: 400 })
    // Approving makes the week an installment the client owes: only from its confirmation step.
    if (unconfirmed('timesheet', intent, form)) return notConfirmed(context)
    await api.call(ts.approve, { params })
    return back(week, 'approved')
  } catch (error) {
    return refused(error)
  }
}
