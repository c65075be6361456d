import { Role, topBarOf } from '../identity/permissions.ts'

// Where a notification leads once read (docs/product.md §4, issue 6 item 7): a chat message goes to its room;
// a project notification takes a freelancer to the contract page and everyone else to the
// client's details page. The chat page is the chat issue's; `/chats/{roomId}` is the address
// agreed for it (docs/decisions/071-notifications.md). Nothing to open: the notifications list.
// A support ticket's notification opens the tickets: support's queue for a SuperAdmin, else the
// user's own list (decision 213).
export function notificationTarget(
  n: { roomId: number | null; projectId: number | null; type?: string },
  roles: readonly number[] | null | undefined,
) {
  // A job alert opens the project it found, or (a freelancer found) the saved searches (decision 328).
  if (n.type === 'SavedSearch') return n.projectId != null ? `/projects/details/${n.projectId}` : '/alerts'
  // An invitation opens the freelancer's invitations; its answer opens the client's project (decision 335).
  if (n.type === 'Invitation' && n.projectId != null)
    return topBarOf(roles) === 'freelancer'
      ? '/projects/invitations'
      : `/projects/client/details/${n.projectId}`
  // A direct offer, its answer, withdrawal or expiry opens the person's offers (decision 342).
  if (n.type === 'Offer') return '/offers'
  // A decision on an identity check opens the person's verification page (decision 332).
  if (n.type === 'Verification') return '/profile/verification'
  // Support's proposal for a hiring request opens the client's requests (decision 338).
  if (n.type === 'Hiring') return '/hiring'
  if (n.type === 'Complaint') return roles?.includes(Role.SuperAdmin) ? '/admin/complaints' : '/ticketSupport'
  if (n.roomId != null) return `/chats/${n.roomId}`
  if (n.projectId == null) return '/'
  return topBarOf(roles) === 'freelancer'
    ? `/projects/freelancer/contract/${n.projectId}`
    : `/projects/client/details/${n.projectId}`
}
