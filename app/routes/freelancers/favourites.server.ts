import { data, redirect, type RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { getUser } from '~/lib/session.server'
import { refused } from '../projects/actions.server'
import { can } from '#server/modules/identity/permissions.ts'
import { favouritesContract as c } from '#server/modules/favourites/contract.ts'

// Saved freelancers (decision 336) from the pages that list or show freelancers: which of them the
// reader saved, and the Save / Remove forms' action, which comes back to the page it was sent from.

/** The ids among `ids` the signed-in reader saved; none for a reader who does not hire. */
export async function savedAmong(context: Readonly<RouterContextProvider>, ids: number[]) {
  if (!ids.length || !can(getUser(context)?.roles, 'freelancers.find')) return null
  return (await apiFor(context).call(c.among, { query: { userIds: ids } })).data
}

/** The Save / Remove form of a freelancer (intent favourite or unfavourite), or null for another intent. */
export async function favouriteIntent(
  context: Readonly<RouterContextProvider>,
  form: FormData,
  back: string,
) {
  const intent = String(form.get('intent') ?? '')
  if (intent !== 'favourite' && intent !== 'unfavourite') return null
  const userId = Number(form.get('userId') ?? 0)
  if (!Number.isInteger(userId) || userId <= 0) return data({ notice: 'errors.required' }, { status: 400 })
  try {
    await apiFor(context).call(intent === 'favourite' ? c.add : c.remove, { params: { userId } })
  } catch (error) {
    return refused(error)
  }
  return redirect(back)
}
