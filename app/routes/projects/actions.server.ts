import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { isGuarded } from '~/lib/confirmed-forms.server'
import { formatMoney } from '~/lib/format'
import { getInstance } from '~/middleware/i18next'
import { projectInput, projectsContract as c } from '#server/modules/projects/contract.ts'
import { installmentActions } from '#server/modules/projects/rules.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { chosenFile, uploadProjectFile } from './api.server'

/** A refused move becomes the page's notice (409 with the current state, 400 with its message); 401/403/404 follow docs/product.md §8. */
export function refused(error: unknown) {
  if (
    error instanceof ApiCallError &&
    (error.status === 409 || error.status === 400) &&
    typeof error.problem === 'object'
  ) {
    // A code the page words itself; otherwise the API's detail.
    const notice =
      error.problem.code === 'timesheet_week_open' ? 'hourly:openWeek.refused' : error.problem.detail
    return data({ notice, fields: error.problem.errors }, { status: error.status })
  }
  throwApiError(error)
}

/** What the page says after a confirmed move, in the person's words (the release names its amount and payee). */
async function doneNotice(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  intent: string,
  id: number,
) {
  const { t, language } = getInstance(context)
  if (intent !== 'installment-approve') return t(`projects:confirm.done.${intent}`)
  const { contract } = await apiFor(context).call(c.detailsForClient, { params: { projectId } })
  const i = contract?.installments.find((x) => x.id === id)
  if (!contract || !i) return t('projects:confirm.done.approved')
  return t('projects:confirm.done.released', {
    amount: formatMoney(i.amountMinor, i.currency, language),
    name: contract.freelancer.name,
  })
}

/** The one-button moves shared by the project pages: each a plain POST with an intent. */
export async function simpleIntent(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  form: FormData,
  back: string,
) {
  const api = apiFor(context)
  const intent = String(form.get('intent') ?? '')
  const id = Number(form.get('id') ?? 0)
  // The moves that release money or cannot be undone act only from their confirmation step (decision 310).
  if (unconfirmed('project', intent, form)) return notConfirmed(context)
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
        await api.call(c.reject, {
          params: { proposalId: id, projectId },
          body: { reason: String(form.get('reason') ?? '') || undefined },
        })
        break
      case 'open':
      case 'cancelled':
      case 'completed':
        await api.call(c.updateState, { params: { projectId, state: intent } })
        break
      case 'remove-file':
        await api.call(c.removeAttachment, { params: { projectId, fileId: id } })
        break
      case 'delete':
        await api.call(c.remove, { params: { projectId } })
        return redirectWithFlash('/projects/client', {
          kind: 'success',
          message: await doneNotice(context, projectId, intent, id),
        })
      default: {
        const action = intent.replace(/^installment-/, '') as (typeof installmentActions)[number]
        if (!intent.startsWith('installment-') || !installmentActions.includes(action)) return null
        const note = String(form.get('note') ?? '').trim()
        await api.call(c.installmentAction, {
          params: { installmentId: id, action },
          body: note ? { note } : {},
        })
      }
    }
  } catch (error) {
    return refused(error)
  }
  if (isGuarded('project', intent))
    return redirectWithFlash(back, {
      kind: 'success',
      message: await doneNotice(context, projectId, intent, id),
    })
  return redirect(back)
}

/**
 * Create Project and Edit Project: validates the form, creates (projectId absent) or edits the
 * project, attaches the chosen file, and goes to the client's details page. API field errors come
 * back on the form's fields; a refused edit (409) is the form's error.
 */
export async function saveProject(
  context: Readonly<RouterContextProvider>,
  formData: FormData,
  projectId?: number,
) {
  const submission = parseWithZod(formData, { schema: projectInput })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  const body = submission.value
  let id: number
  try {
    const api = apiFor(context)
    id = (
      projectId
        ? await api.call(c.update, { params: { projectId }, body })
        : await api.call(c.create, { body })
    ).id
  } catch (error) {
    // The form's fields are the API's: its refusals (an unknown subcategory) show on them.
    if (error instanceof ApiCallError && typeof error.problem === 'object' && error.status === 400)
      return data(submission.reply({ fieldErrors: error.problem.errors }), { status: 400 })
    if (error instanceof ApiCallError && typeof error.problem === 'object' && error.status === 409)
      return data(submission.reply({ formErrors: [error.problem.detail] }), { status: 409 })
    throwApiError(error)
  }
  const file = chosenFile(formData.get('file'))
  if (file) {
    try {
      await uploadProjectFile(context, id, file)
    } catch (error) {
      // The project is saved; the file's problem shows on its page, where another file can be added.
      // It goes by the flash cookie: a notice in the address would show whatever anyone writes there.
      // Its detail is a key of the projects' texts (uploadProjectFile) or the API's own words.
      const detail =
        error instanceof ApiCallError && typeof error.problem === 'object'
          ? error.problem.detail
          : 'errors.upload'
      const message = getInstance(context).t(detail, { ns: 'projects', defaultValue: detail })
      return redirectWithFlash(`/projects/client/details/${id}`, { kind: 'error', message })
    }
  }
  return redirect(`/projects/client/details/${id}?${projectId ? 'edited' : 'created'}=1`)
}

/** Save or unsave a project from a list (the card's form names its project), then back to the list. */
export async function wishFromList(context: Readonly<RouterContextProvider>, form: FormData, back: string) {
  const projectId = Number(form.get('projectId') ?? 0)
  const intent = String(form.get('intent') ?? '')
  if (!Number.isInteger(projectId) || projectId <= 0 || (intent !== 'wish' && intent !== 'unwish'))
    return data({ notice: 'errors.required' }, { status: 400 })
  try {
    await apiFor(context).call(intent === 'wish' ? c.addWish : c.removeWish, { params: { projectId } })
  } catch (error) {
    return refused(error)
  }
  return redirect(back)
}
