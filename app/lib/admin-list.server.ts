import type { RouterContextProvider } from 'react-router'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor, type Wording } from '~/lib/words'

type Api = ReturnType<typeof apiFor>

/**
 * The loader of an admin list (a queue, the users, the audit log): SuperAdmins only (anyone else is
 * sent to /auth/unauthorized), the page of it `read` asks the API for (an API error becomes the
 * error page), the address its filters and pages link from, the page's title, and the words of
 * the amounts and dates `word` names (`PageWords` gives them to the page's components, `~/lib/words`).
 */
export async function adminList<T>(
  context: Readonly<RouterContextProvider>,
  url: URL,
  titleKey: string,
  read: (api: Api) => Promise<T>,
  word: (words: Wording, result: T) => void = () => {},
) {
  requirePermission(context, url, 'admin.area')
  try {
    const result = await read(apiFor(context))
    const words = wordsFor(getLocale(context))
    word(words, result)
    return {
      result,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t(titleKey),
    }
  } catch (error) {
    throwApiError(error)
  }
}

/** A filter's value from the address when it is one of `values`, else none. */
export const oneOf = <T extends string>(values: readonly T[], given: string | null) =>
  (values as readonly string[]).includes(given ?? '') ? (given as T) : undefined
