import type { TabLink } from '~/components/ui/tab-nav'

// The admin area's sections (issue 18 item 3), in the order of the tab row. Each label is a key of
// the `admin` namespace's `nav`. A section's page guards itself too (loaders run in parallel).
export const adminSections: Array<Omit<TabLink, 'label'> & { key: string }> = [
  { to: '/admin', key: 'dashboard', end: true },
  { to: '/admin/users', key: 'users' },
  { to: '/admin/complaints', key: 'complaints' },
  { to: '/admin/verifications', key: 'verifications' },
  { to: '/admin/hiring', key: 'hiring' },
  { to: '/admin/payments', key: 'payments' },
  { to: '/admin/categories', key: 'categories' },
  { to: '/admin/project-review', key: 'projectReview' },
  { to: '/admin/content', key: 'content' },
  { to: '/admin/audit', key: 'audit' },
]
