import { useRouteLoaderData } from 'react-router'
import type { SessionUser } from '#server/modules/identity/contract.ts'
import { can, menuFor, topBarOf, type Permission } from '#server/modules/identity/permissions.ts'

// The signed-in user as the root loader found it (fresh from the API on every request), or null.
export function useOptionalUser(): SessionUser | null {
  const data = useRouteLoaderData('root') as { user?: SessionUser | null } | undefined
  return data?.user ?? null
}

export function useUser(): SessionUser {
  const user = useOptionalUser()
  if (!user) throw new Error('useUser needs a signed-in user: guard the route (requireUser) first')
  return user
}

/** Permission check for components, from the one list in server/modules/identity/permissions.ts. */
export function useCan(permission: Permission) {
  return can(useOptionalUser()?.roles, permission)
}

export { menuFor, topBarOf }
