import type { RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'

type Api = ReturnType<typeof apiFor>

/**
 * The loader of an admin list (a queue, the users, the audit log): SuperAdmins only (anyone else is
 * sent to /auth/unauthorized), the page of it `read` asks the API for (an API error becomes the
 * error page), the address its filters and pages link from, and the page's title.
 */
export async function adminList<T>(
  context: Readonly<RouterContextProvider>,
  url: URL,
  titleKey: string,
  read: (api: Api) => Promise<T>,
) {
  requirePermission(context, url, 'admin.area')
  try {
    const result = await read(apiFor(context))
    return { result, url: url.pathname + url.search, title: getInstance(context).t(titleKey) }
  } catch (error) {
    throwApiError(error)
  }
}

/** A filter's value from the address when it is one of `values`, else none. */
export const oneOf = <T extends string>(values: readonly T[], given: string | null) =>
  (values as readonly string[]).includes(given ?? '') ? (given as T) : undefined
