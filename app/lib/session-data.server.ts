import type { RouterContextProvider } from 'react-router'
import { appContext } from './context'
import { getLocale } from '../middleware/i18next'
import { shared } from './packed'

/**
 * What every page of a session (token null: of every visitor) shows and reads the same way (who is signed in, the bell, the
 * messages menu), kept for that session and language by the page cache's rules (decision 200):
 * at most PAGE_CACHE_SECONDS, forgotten by any write this instance serves or any outbox delivery
 * (a message, a notification), so it is never older than the last change. Read afresh when the
 * API is another host (its writes would not reach this cache) or in development.
 */
export function keptForSession<T>(
  context: Readonly<RouterContextProvider>,
  token: string | null,
  what: string,
  read: () => Promise<T>,
): Promise<T> {
  const deps = context.get(appContext)
  // Shared by every page that reads it, so frozen (decision 299): a page that tried to change it
  // would throw, not change what others are shown. Frozen on every path, kept or not, so that
  // such a page fails the same way in every setup.
  const readShared = async () => shared(await read())
  if (!deps.pageCache || deps.apiUrl) return readShared()
  return deps.pageCache.remember(`${what}\n${getLocale(context)}\n${token ?? ''}`, readShared)
}
