// The pages' guards, written down (decision 256). Columns: a visitor, the world's client (owner of
// the project, contract, chat, complaint), a company, the world's freelancer (hired on that
// contract), a SuperAdmin, and another client (a stranger to those objects).
//   page          200, the page
//   login         302 to /auth/login?redirectTo=… (requireUser)
//   unauthorized  302 to /auth/unauthorized (requirePermission: the role may not)
//   not-found     404, the not-found page itself
//   '302 /x'      a redirect elsewhere, written out (another user's object → /auth/not-found)
// A new route without a row fails the test, naming it.
export const pageColumns = ['visitor', 'client', 'company', 'freelancer', 'admin', 'stranger'] as const
export type PageColumn = (typeof pageColumns)[number]
export type PageCell =
  'page' | 'login' | 'unauthorized' | 'not-found' | 'any' | `${number} ${string}` | `${number}`

const GONE = '302 /auth/not-found'
const EVERYONE = 'page page page page page page'
const SIGNED_IN = 'login page page page page page'
const CLIENT_SIDE = 'login page page unauthorized unauthorized page'
const FREELANCER_SIDE = 'login unauthorized unauthorized page unauthorized unauthorized'
const ADMIN = 'login unauthorized unauthorized unauthorized page unauthorized'
/** An admin page whose parameter the matrix fills with 1: what the admin gets depends on the object. */
const ADMIN_ANY = 'login unauthorized unauthorized unauthorized any unauthorized'
/** The contract's pages: its two parties; anyone else is told it is not there. */
const PARTIES = `login page ${GONE} page ${GONE} ${GONE}`
const times = (cell: string, n: number) => Array(n).fill(cell).join(' ')
const same = (cell: string) => times(cell, 6)
/** The sign-in's second step without a challenge: a visitor back to the first, anyone signed in home. */
const SECOND_STEP = `login ${times('302 /dashboard', 5)}`

const table: Record<string, string> = {
  '/': EVERYONE,
  '/about-us': EVERYONE,
  '/why-workneer': EVERYONE,
  '/blogs': EVERYONE,
  '/blogs/:id': EVERYONE,
  '/faq': EVERYONE,
  '/contact-us': EVERYONE,
  '/categories': EVERYONE,
  '/newsletter/confirm/:token': EVERYONE,
  '/newsletter/unsubscribe/:token': EVERYONE,
  '/emails/stop/:userId/:kind/:token': EVERYONE,
  // Saved searches (decision 328): a person's own; the digest's link works without signing in.
  '/alerts': SIGNED_IN,
  '/alerts/new': SIGNED_IN,
  '/alerts/unsubscribe/:token': EVERYONE,
  '/auth/not-found': same('not-found'),
  '/auth/login': `page ${times('302 /dashboard', 5)}`,
  '/auth/gotosign': `page ${times('302 /dashboard', 5)}`,
  '/auth/terms-and-conditions': EVERYONE,
  '/auth/verify-email': EVERYONE,
  '/auth/forgot-password': EVERYONE,
  '/auth/reset-password': EVERYONE,
  '/auth/confirm-email': same('400'),
  '/auth/logout': same('302 /'),
  '/auth/unauthorized': same('403'),
  '/auth/oidc/callback': same('400'),
  '/auth/oidc/:provider': same('302 /auth/oidc/callback?error=start'),
  '/auth/complete-signup': same('302 /auth/gotosign'),
  '/profile/account-settings': SIGNED_IN,
  '/profile': SIGNED_IN,
  '/profiles/freelancers/:id': EVERYONE,
  '/profiles/clients/:id': EVERYONE,
  '/profiles/companies/:id': EVERYONE,
  '/peyment-details': SIGNED_IN,
  '/payment-details': same('301 /peyment-details'),
  '/payouts': SIGNED_IN,
  '/freelancers': CLIENT_SIDE,
  '/freelancers/freelancersearch': CLIENT_SIDE,
  // Saved freelancers and the shortlist compared (decision 336): the client side's; a project's
  // shortlist is its client's alone.
  '/freelancers/saved': CLIENT_SIDE,
  '/projects/client/compare/:projectId': `login page ${GONE} unauthorized unauthorized ${GONE}`,
  // Hiring help (decision 338): the client side's; a request is its client's alone.
  '/hiring': CLIENT_SIDE,
  '/hiring/new': CLIENT_SIDE,
  '/hiring/:requestId': `login page ${GONE} unauthorized unauthorized ${GONE}`,
  '/projects': EVERYONE,
  '/projects/getprojects': EVERYONE,
  '/projects/create': CLIENT_SIDE,
  '/projects/client': CLIENT_SIDE,
  '/projects/client/details/:projectId': `login page ${GONE} unauthorized unauthorized ${GONE}`,
  // The contract's project: its client is sent to the client's view of it.
  '/projects/details/:projectId': `login 302 /projects/client/details/1 ${GONE} page ${GONE} ${GONE}`,
  '/projects/freelancer': FREELANCER_SIDE,
  '/projects/freelancer/porposals': FREELANCER_SIDE,
  // A freelancer's invitations (decision 335).
  '/projects/invitations': FREELANCER_SIDE,
  '/projects/freelancer/contract/:projectId': FREELANCER_SIDE,
  // Direct offers (decision 342): anyone's own list; the form is the client side's (without a
  // freelancer to offer to, there is nothing to show); an offer is its two parties'.
  '/offers': SIGNED_IN,
  '/offers/new': `login ${GONE} ${GONE} unauthorized unauthorized ${GONE}`,
  '/offers/:offerId': PARTIES,
  '/projects/changes/:projectId': PARTIES,
  // Paying needs the installments chosen: without them the page is a 400 (to the client side).
  '/projects/client/pay/:projectId': 'login 400 400 unauthorized unauthorized 400',
  '/checkout/:token': EVERYONE,
  // The sandbox's hosted onboarding (decision 333): the account's id is the capability, as the checkout's token.
  '/onboarding/:account': EVERYONE,
  '/invoices': SIGNED_IN,
  '/statements': SIGNED_IN,
  '/dashboard': SIGNED_IN,
  '/reviews': SIGNED_IN,
  '/notifications': SIGNED_IN,
  '/notifications/settings': SIGNED_IN,
  '/chats': SIGNED_IN,
  '/chats/:roomId': PARTIES,
  // In progress, the contract's project is no longer editable: its client goes to its details.
  '/projects/client/edit/:projectId': `login 302 /projects/client/details/1 ${GONE} unauthorized unauthorized ${GONE}`,
  '/projects/wishlist': SIGNED_IN,
  '/ticketSupport': SIGNED_IN,
  '/ticketSupport/addComplaints': SIGNED_IN,
  // The complaint is about the contract: its other party reads it too (decision 232).
  '/ticketSupport/:complaintId': PARTIES,
  // The contract's deliverables register, its deliverables and transmittals (decision 318).
  '/projects/register/:projectId': PARTIES,
  '/projects/deliverable/:deliverableId': PARTIES,
  '/projects/transmittal/:transmittalId': PARTIES,
  '/projects/transmittal/:transmittalId/pdf': PARTIES,
  // An hourly contract's timesheet (decision 324): the world's contract is fixed-price, so its
  // parties are told it has none (409); anyone else, that it is not there.
  '/projects/timesheets/:projectId': `login 409 ${GONE} 409 ${GONE} ${GONE}`,
  '/admin/complaints': ADMIN,
  '/admin/complaints/:complaintId': ADMIN,
  '/admin/complaints/:complaintId/room': ADMIN_ANY,
  '/admin/hiring': ADMIN,
  '/admin/hiring/:requestId': ADMIN,
  '/admin': ADMIN,
  '/admin/payments': ADMIN,
  '/admin/users': ADMIN,
  '/admin/users/:userId': ADMIN,
  '/admin/audit': ADMIN,
  '/admin/verifications': ADMIN,
  '/admin/verifications/:id/document': ADMIN_ANY,
  '/admin/content': 'login unauthorized unauthorized unauthorized 302 /admin/content/blogs unauthorized',
  '/admin/content/:kind': ADMIN_ANY,
  '/admin/content/:kind/new': ADMIN_ANY,
  '/admin/content/:kind/:id': ADMIN_ANY,
  '/admin/categories': ADMIN,
  '/admin/categories/import': ADMIN,
  '/admin/categories/:categoryId': ADMIN,
  '/admin/categories/export/:format': ADMIN_ANY,
  // Review before publication (decision 339).
  '/admin/project-review': ADMIN,
  '/admin/project-review/rule': ADMIN,
  '/userService': EVERYONE,
  '/auth/second-factor': SECOND_STEP,
  '/profile/account-settings/two-factor': SIGNED_IN,
  '/profile/account-settings/close': SIGNED_IN,
  // The client's archive of their data is ready (decision 331); anyone else's link is back to their settings.
  '/profile/account-settings/data-export/download': `login page ${times('302 /profile/account-settings?export=gone#data-export', 4)}`,
  '/profile/verification': SIGNED_IN,
  '/*': same(GONE),
  '/set-language': same('302 /'),
  '/newsletter': same('302 /'),
  '/search': same('302 /freelancers/freelancersearch?search=all'),
  // A file of the open project: every signed-in user may read it (projects/service.ts read policy).
  '/projects/files/:fileId': SIGNED_IN,
  '/chats/files/:fileId': SIGNED_IN,
  '/ticketSupport/files/:fileId': SIGNED_IN,
  '/search/suggest': EVERYONE,
  '/notifications/:id/read': `login ${times('302 /', 5)}`,
  '/notifications/read-all': `login ${times('302 /notifications', 5)}`,
  '/invoices/:invoiceId/pdf': PARTIES,
  '/statements.csv': SIGNED_IN,
  // Development and e2e only (decision 110): a production server has no style guide.
  '/_styleguide': same('not-found'),
}

/** Splits a row into its six cells; a redirect cell is two words ('302 /x'). */
function cellsOf(spec: string): PageCell[] {
  const words = spec.split(' ')
  const out: string[] = []
  for (let i = 0; i < words.length; i++)
    out.push(/^30\d$/.test(words[i]) ? `${words[i]} ${words[++i]}` : words[i])
  return out as PageCell[]
}

export function pageRowFor(route: string): Record<PageColumn, PageCell> | undefined {
  const spec = table[route]
  if (!spec) return undefined
  const cells = cellsOf(spec)
  if (cells.length !== pageColumns.length)
    throw new Error(`${route}: a row needs ${pageColumns.length} cells, has ${cells.length}`)
  return Object.fromEntries(pageColumns.map((c, i) => [c, cells[i]])) as Record<PageColumn, PageCell>
}
