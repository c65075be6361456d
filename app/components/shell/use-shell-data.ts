import { useRouteLoaderData } from 'react-router'
import type { ShellData } from '~/routes/layout'

/** What the shell shows (the layout loader's), for a page that shows part of it too; null outside the layout. */
export function useShellData(): ShellData | null {
  const data = useRouteLoaderData('routes/layout') as { shell: ShellData } | undefined
  return data?.shell ?? null
}
