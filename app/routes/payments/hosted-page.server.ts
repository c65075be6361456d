import { data, type RouterContextProvider } from 'react-router'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import { refused } from '../projects/actions.server'

// The sandbox gateway's hosted pages (its checkout, decision 171; its onboarding, decision 333)
// answer a refused form the same way: each refused field with the page's own message for it, in the
// page's language, and nothing of what was typed except the fields named safe to echo.

/** A form's refusal: 400 with each known field's message (`<prefix>.<field>`), else the API's notice. */
export function refusedFields(
  error: unknown,
  fields: readonly string[],
  prefix: string,
  initialValue: Record<string, string>,
) {
  if (error instanceof ApiCallError && error.status === 400 && typeof error.problem === 'object') {
    const wrong = Object.keys(error.problem.errors ?? {}).filter((f) => fields.includes(f))
    return data(
      { error: Object.fromEntries(wrong.map((f) => [f, [`${prefix}.${f}`]])), initialValue },
      { status: 400 },
    )
  }
  return refused(error)
}

/** The page's session at the gateway and its title; a session the gateway does not know is the API's 404. */
export async function hostedSession<T>(
  context: Readonly<RouterContextProvider>,
  read: (api: ReturnType<typeof apiFor>) => Promise<T>,
  titleKey: string,
) {
  try {
    return { session: await read(apiFor(context)), title: getInstance(context).t(titleKey) }
  } catch (error) {
    throwApiError(error)
  }
}
