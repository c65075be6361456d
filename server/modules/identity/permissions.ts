// Roles and permissions in ONE place (docs/product.md §6). The API (services), the web routes (guards) and the
// menus all read them from here. Pure data and functions: no server imports, so the web UI bundles it.

export const Role = { SuperAdmin: 1, Client: 2, Company: 3, Freelancer: 4 } as const
export type RoleId = (typeof Role)[keyof typeof Role]
export const roleNames: Record<number, string> = {
  1: 'SuperAdmin',
  2: 'Client',
  3: 'Company',
  4: 'Freelancer',
}

export const permissions = [
  'freelancers.find',
  'projects.mine',
  'projects.create',
  'projects.list',
  'projects.find',
  'contracts.mine',
  'proposals.mine',
  'profile.view',
  'payments.details',
  'account.settings',
  'complaints.add',
  'complaints.viewAll',
  'session.logout',
  'dashboard.view',
  'reviews.mine',
  'admin.area',
  'payouts.mine',
  'money.mine',
] as const
export type Permission = (typeof permissions)[number]

const signedIn: Permission[] = [
  'dashboard.view',
  'profile.view',
  'payments.details',
  'account.settings',
  'complaints.add',
  'complaints.viewAll',
  'session.logout',
]
// Reviews are written and received on contracts, so only the two sides of a contract have them.
const clientSide: Permission[] = [
  'freelancers.find',
  'projects.mine',
  'projects.create',
  'projects.list',
  'reviews.mine',
  'money.mine',
]

export const rolePermissions: Record<RoleId, readonly Permission[]> = {
  [Role.SuperAdmin]: [...signedIn, 'admin.area'],
  [Role.Client]: [...signedIn, ...clientSide],
  [Role.Company]: [...signedIn, ...clientSide],
  [Role.Freelancer]: [
    ...signedIn,
    'projects.find',
    'contracts.mine',
    'proposals.mine',
    'projects.list',
    'reviews.mine',
    'money.mine',
    'payouts.mine',
  ],
}

export function permissionsOf(roles: readonly number[]): Set<Permission> {
  const out = new Set<Permission>()
  for (const role of roles) for (const p of rolePermissions[role as RoleId] ?? []) out.add(p)
  return out
}

export function can(roles: readonly number[] | null | undefined, permission: Permission) {
  return !!roles && permissionsOf(roles).has(permission)
}

/** docs/product.md §4: the Freelancer role gives the freelancer bar; any other signed-in user gets the client bar. */
export function topBarOf(roles: readonly number[] | null | undefined): 'freelancer' | 'client' | 'visitor' {
  if (!roles) return 'visitor'
  return roles.includes(Role.Freelancer) ? 'freelancer' : 'client'
}

/** Menu entries, each gated by one permission; labels are keys of the `auth` namespace (menu.*). */
export const menu: ReadonlyArray<{ permission: Permission; to: string; label: string }> = [
  { permission: 'dashboard.view', to: '/dashboard', label: 'menu.dashboard' },
  { permission: 'freelancers.find', to: '/freelancers', label: 'menu.findFreelancers' },
  { permission: 'freelancers.find', to: '/freelancers/saved', label: 'menu.savedFreelancers' },
  { permission: 'projects.find', to: '/projects/getprojects', label: 'menu.findProject' },
  { permission: 'projects.mine', to: '/projects/client', label: 'menu.myProjects' },
  { permission: 'projects.create', to: '/projects/create', label: 'menu.createProject' },
  { permission: 'contracts.mine', to: '/projects/freelancer', label: 'menu.myContracts' },
  { permission: 'proposals.mine', to: '/projects/freelancer/porposals', label: 'menu.myProposals' },
  { permission: 'proposals.mine', to: '/projects/invitations', label: 'menu.invitations' },
  // Direct offers (decision 342): one page, a freelancer's received offers or a client's sent ones.
  { permission: 'proposals.mine', to: '/offers', label: 'menu.offersReceived' },
  { permission: 'projects.mine', to: '/offers', label: 'menu.offersSent' },
  { permission: 'proposals.mine', to: '/projects/wishlist', label: 'menu.savedProjects' },
  { permission: 'projects.list', to: '/projects', label: 'menu.projects' },
  { permission: 'reviews.mine', to: '/reviews', label: 'menu.reviews' },
  { permission: 'profile.view', to: '/profile', label: 'menu.profile' },
  { permission: 'payments.details', to: '/peyment-details', label: 'menu.paymentDetails' },
  { permission: 'payouts.mine', to: '/payouts', label: 'menu.payouts' },
  { permission: 'money.mine', to: '/invoices', label: 'menu.invoices' },
  { permission: 'money.mine', to: '/statements', label: 'menu.statements' },
  { permission: 'admin.area', to: '/admin', label: 'menu.administration' },
  { permission: 'account.settings', to: '/profile/account-settings', label: 'menu.accountSettings' },
  { permission: 'complaints.add', to: '/ticketSupport/addComplaints', label: 'menu.addComplaints' },
  { permission: 'complaints.viewAll', to: '/ticketSupport', label: 'menu.viewComplaints' },
]

export function menuFor(roles: readonly number[] | null | undefined) {
  if (!roles) return []
  const granted = permissionsOf(roles)
  return menu.filter((m) => granted.has(m.permission))
}

/** docs/product.md §6 route guard: these top-level sections need a signed-in user. */
export const loginRequiredSections = [
  'profile',
  'dashboard',
  'statements',
  'payouts',
  'chats',
  'reviews',
  'invoices',
  'notifications',
  'offers',
] as const

/** Screens that need a permission beyond being signed in (checked by the web guard and the API). */
export const routePermissions: ReadonlyArray<{ prefix: string; permission: Permission }> = [
  { prefix: '/profile/account-settings', permission: 'account.settings' },
  { prefix: '/profile', permission: 'profile.view' },
  { prefix: '/freelancers', permission: 'freelancers.find' },
  { prefix: '/projects/create', permission: 'projects.create' },
  { prefix: '/projects/client', permission: 'projects.mine' },
  { prefix: '/projects/freelancer/porposals', permission: 'proposals.mine' },
  { prefix: '/projects/invitations', permission: 'proposals.mine' },
  { prefix: '/offers/new', permission: 'freelancers.find' },
  { prefix: '/projects/freelancer', permission: 'contracts.mine' },
  { prefix: '/peyment-details', permission: 'payments.details' },
  { prefix: '/ticketSupport/addComplaints', permission: 'complaints.add' },
  { prefix: '/ticketSupport', permission: 'complaints.viewAll' },
  { prefix: '/admin', permission: 'admin.area' },
]

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

export function requiresLogin(pathname: string) {
  const first = pathname.split('/')[1] ?? ''
  return (
    (loginRequiredSections as readonly string[]).includes(first) ||
    routePermissions.some((r) => underPrefix(pathname, r.prefix))
  )
}

/** The permission a path needs, if any (the most specific prefix wins). */
export function permissionForPath(pathname: string): Permission | null {
  return routePermissions.find((r) => underPrefix(pathname, r.prefix))?.permission ?? null
}

const LOCAL = 'http://local.invalid'
const MAX_REDIRECT = 2048

/**
 * Where a `redirectTo` may send the browser: a path on this site, otherwise `fallback`. The
 * target is normalised first (dot segments, tabs and newlines dropped, backslashes read as
 * slashes, as a browser reads them) and the decision is taken on that normalised path, which is
 * exactly what is returned: `/.//evil.example` normalises to `//evil.example`, a host, so it is
 * refused rather than returned. The answer reads the same when parsed again (a fixed point), so
 * no later step can turn it into another host.
 */
export function safeRedirect(to: unknown, fallback = '/') {
  if (typeof to !== 'string' || !to.startsWith('/') || to.length > MAX_REDIRECT) return fallback
  const local = localPath(to)
  return local !== null && localPath(local) === local ? local : fallback
}

/** The path, query and fragment `to` leads to when it stays on this site, else null. */
function localPath(to: string) {
  let url: URL
  try {
    url = new URL(to, LOCAL)
  } catch {
    return null
  }
  if (url.origin !== LOCAL || url.username || url.password) return null
  const path = url.pathname + url.search + url.hash
  // A path that starts with two slashes (or a slash and a backslash) names a host to a browser.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null
  // The URL parser escapes what it keeps; anything else left unprintable is refused outright.
  return [...path].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 || c === '\\') ? null : path
}
