import { useRouteLoaderData } from 'react-router'
import type { ShellData } from '~/routes/layout'
import { unpack, type Packed } from '~/lib/packed'

/** What the shell shows (the layout loader's, packed: decision 299), for a page that shows part of it too; null outside the layout. */
export function useShellData(): ShellData | null {
  const data = useRouteLoaderData('routes/layout') as { shell: Packed<ShellData> } | undefined
  return data ? unpack(data.shell) : null
}
