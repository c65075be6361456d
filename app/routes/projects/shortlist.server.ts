import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { shortlistContract as c } from '#server/modules/projects/shortlist/contract.ts'
import { refused } from './actions.server'

// The client's shortlist on their project page (decision 336): what is on it, and its three forms
// (Shortlist, Remove from shortlist, Save note), each a plain POST that comes back to the same view.

export type ShortlistMarks = Record<number, { note: string | null }>

/** The project's shortlist as marks by proposal id; none when the project has no proposals yet. */
export async function loadShortlist(
  context: Readonly<RouterContextProvider>,
  projectId: number,
  hasProposals: boolean,
): Promise<ShortlistMarks> {
  if (!hasProposals) return {}
  const { data: entries } = await apiFor(context).call(c.compare, { params: { projectId } })
  return Object.fromEntries(entries.map((e) => [e.proposalId, { note: e.note }]))
}

/** A refused note: the field's message, shown under that proposal's note. */
function noteRefused(error: unknown, id: number) {
  if (error instanceof ApiCallError && error.status === 400 && typeof error.problem === 'object') {
    const message = error.problem.errors?.note?.[0] ?? error.problem.detail
    return data({ noteError: { id, message } }, { status: 400 })
  }
  return refused(error)
}

/** The shortlist's intents (shortlist, unshortlist, shortlist-note), or null for any other. */
export async function shortlistIntent(
  context: Readonly<RouterContextProvider>,
  form: FormData,
  back: string,
) {
  const intent = String(form.get('intent') ?? '')
  if (intent !== 'shortlist' && intent !== 'unshortlist' && intent !== 'shortlist-note') return null
  const proposalId = Number(form.get('id') ?? 0)
  const api = apiFor(context)
  try {
    if (intent === 'unshortlist') await api.call(c.remove, { params: { proposalId } })
    else {
      const note = intent === 'shortlist-note' ? String(form.get('note') ?? '') : undefined
      await api.call(c.put, { params: { proposalId }, body: { note } })
    }
  } catch (error) {
    return noteRefused(error, proposalId)
  }
  return redirect(`${back}#proposal-${proposalId}`)
}
