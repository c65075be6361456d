import type { RouterContextProvider } from 'react-router'
import { shared } from './packed'

/**
 * What every page of a session (token null: of every visitor) shows and reads the same way (who is
 * signed in, the bell, the messages menu). Read afresh for every page: the server keeps no
 * signed-in data between requests.
 */
export async function keptForSession<T>(
  _context: Readonly<RouterContextProvider>,
  _token: string | null,
  _what: string,
  read: () => Promise<T>,
): Promise<T> {
  // Frozen as before (decision 299), so a page that changed it fails the same way everywhere.
  return shared(await read())
}
