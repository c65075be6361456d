import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

// The end-to-end tests' and the bench's own routes are no part of a production build. This file is
// read when the app is built, so only a build made for them (E2E=1 or BENCH=1, `npm run build:test`)
// has them; their modules live beside the tests and the bench.
const forTests = process.env.E2E === '1' || process.env.BENCH === '1'
// Answers any status the way a failed API call does, inside the layout (tests/e2e/shell.spec.ts).
const testPages = forTests
  ? [route('_test/status/:status', '../tests/e2e/routes/status.tsx', { id: 'test-status' })]
  : []
// A deliberately trivial page: the bench's baseline for what React Router costs on its own.
const benchPages = forTests
  ? [route('_bench/trivial', '../bench/routes/trivial.tsx', { id: 'bench-trivial' })]
  : []

// Mirrors the route table of docs/product.md §2. Every screen sits in the common layout (top bar, page, footer).
export default [
  layout('routes/layout.tsx', [
    index('routes/home.tsx'),
    route('about-us', 'routes/content-page.tsx', { id: 'about-us' }),
    route('why-workneer', 'routes/content-page.tsx', { id: 'why-workneer' }),
    route('blogs', 'routes/blogs.tsx'),
    route('blogs/:id', 'routes/blog.tsx'),
    route('faq', 'routes/faq.tsx'),
    route('userService', 'routes/user-service.tsx'),
    route('contact-us', 'routes/contact-us.tsx'),
    route('categories', 'routes/categories.tsx'),
    route('newsletter/confirm/:token', 'routes/newsletter-confirm.tsx'),
    route('newsletter/unsubscribe/:token', 'routes/newsletter-unsubscribe.tsx'),
    route('emails/stop/:userId/:kind/:token', 'routes/emails-stop.tsx'),
    // Saved searches and job alerts (decision 328); the digest's link works without signing in.
    route('alerts', 'routes/alerts/list.tsx'),
    route('alerts/new', 'routes/alerts/new.tsx'),
    route('alerts/unsubscribe/:token', 'routes/alerts/unsubscribe.tsx'),
    ...testPages,
    route('auth/not-found', 'routes/auth/not-found.tsx'),
    route('auth/login', 'routes/auth/login.tsx'),
    route('auth/gotosign', 'routes/auth/gotosign.tsx'),
    route('auth/terms-and-conditions', 'routes/auth/terms.tsx'),
    route('auth/verify-email', 'routes/auth/verify-email.tsx'),
    route('auth/forgot-password', 'routes/auth/forgot-password.tsx'),
    route('auth/reset-password', 'routes/auth/reset-password.tsx'),
    route('auth/confirm-email', 'routes/auth/confirm-email.tsx'),
    route('auth/logout', 'routes/auth/logout.tsx'),
    route('auth/unauthorized', 'routes/auth/unauthorized.tsx'),
    route('auth/oidc/callback', 'routes/auth/oidc-callback.tsx'),
    route('auth/oidc/:provider', 'routes/auth/oidc-start.tsx'),
    route('auth/complete-signup', 'routes/auth/complete-signup.tsx'),
    route('auth/second-factor', 'routes/auth/second-factor.tsx'),
    route('profile/account-settings', 'routes/profile/account-settings.tsx'),
    route('profile/account-settings/two-factor', 'routes/profile/two-factor.tsx'),
    route('profile/account-settings/close', 'routes/profile/close-account.tsx'),
    route('profile/account-settings/data-export/download', 'routes/profile/data-export-download.tsx'),
    // Verified identity (decision 332).
    route('profile/verification', 'routes/profile/verification.tsx'),
    route('profile', 'routes/profile/index.tsx'),
    route('profiles/freelancers/:id', 'routes/profiles/freelancer.tsx'),
    route('profiles/clients/:id', 'routes/profiles/client.tsx', { id: 'profiles-client' }),
    route('profiles/companies/:id', 'routes/profiles/client.tsx', { id: 'profiles-company' }),
    route('peyment-details', 'routes/peyment-details.tsx'),
    route('payment-details', 'routes/peyment-details-redirect.tsx'),
    route('payouts', 'routes/payouts.tsx'),
    route('freelancers', 'routes/freelancers/search.tsx', { id: 'freelancers' }),
    route('freelancers/freelancersearch', 'routes/freelancers/search.tsx', { id: 'freelancers-search' }),
    // Saved freelancers, and a project's shortlist compared side by side (decision 336).
    route('freelancers/saved', 'routes/freelancers/saved.tsx'),
    route('projects/client/compare/:projectId', 'routes/projects/compare.tsx'),
    // Hiring with Workneer's help: the client's requests (decision 338).
    route('hiring', 'routes/hiring/list.tsx'),
    route('hiring/new', 'routes/hiring/new.tsx'),
    route('hiring/:requestId', 'routes/hiring/request.tsx'),
    route('projects', 'routes/projects/list.tsx', { id: 'projects' }),
    route('projects/getprojects', 'routes/projects/list.tsx', { id: 'projects-getprojects' }),
    route('projects/create', 'routes/projects/create.tsx'),
    route('projects/client', 'routes/projects/client.tsx'),
    route('projects/client/details/:projectId', 'routes/projects/client-details.tsx'),
    route('projects/details/:projectId', 'routes/projects/details.tsx'),
    route('projects/freelancer', 'routes/projects/contracts.tsx'),
    route('projects/freelancer/porposals', 'routes/projects/proposals.tsx'),
    // A freelancer's invitations to projects (decision 335).
    route('projects/invitations', 'routes/projects/invitations.tsx'),
    // Direct offers: a client's terms to one freelancer, a contract on acceptance (decision 342).
    route('offers', 'routes/offers/list.tsx'),
    route('offers/new', 'routes/offers/new.tsx'),
    route('offers/:offerId', 'routes/offers/offer.tsx'),
    route('projects/freelancer/contract/:projectId', 'routes/projects/contract.tsx'),
    route('projects/client/pay/:projectId', 'routes/payments/pay.tsx'),
    route('checkout/:token', 'routes/payments/checkout.tsx'),
    route('onboarding/:account', 'routes/payments/onboarding.tsx'),
    route('invoices', 'routes/payments/invoices.tsx'),
    route('statements', 'routes/payments/statements.tsx'),
    route('dashboard', 'routes/dashboard.tsx'),
    route('reviews', 'routes/reviews.tsx'),
    route('notifications', 'routes/notifications.tsx'),
    route('notifications/settings', 'routes/notifications-settings.tsx'),
    route('chats', 'routes/chats/list.tsx'),
    route('chats/:roomId', 'routes/chats/room.tsx'),
    route('projects/client/edit/:projectId', 'routes/projects/edit.tsx'),
    route('projects/wishlist', 'routes/projects/wishlist.tsx'),
    route('ticketSupport', 'routes/ticket-support/list.tsx'),
    route('ticketSupport/addComplaints', 'routes/ticket-support/add.tsx'),
    route('ticketSupport/:complaintId', 'routes/ticket-support/ticket.tsx'),
    // A contract's change orders, for its two parties (decision 319).
    route('projects/changes/:projectId', 'routes/projects/change-orders.tsx'),
    // A contract's deliverables register (decision 318).
    route('projects/register/:projectId', 'routes/projects/register.tsx'),
    // An hourly contract's weekly timesheet (decision 324).
    route('projects/timesheets/:projectId', 'routes/projects/timesheets.tsx'),
    route('projects/deliverable/:deliverableId', 'routes/projects/deliverable.tsx'),
    route('projects/transmittal/:transmittalId', 'routes/projects/transmittal.tsx'),
    // The admin area (SuperAdmin only): one tab row over its sections (app/routes/admin/sections.ts).
    layout('routes/admin/layout.tsx', [
      route('admin', 'routes/admin/dashboard.tsx'),
      route('admin/payments', 'routes/admin/payments.tsx'),
      route('admin/complaints', 'routes/admin/complaints.tsx'),
      route('admin/complaints/:complaintId', 'routes/admin/complaint.tsx'),
      route('admin/complaints/:complaintId/room', 'routes/admin/complaint-room.tsx'),
      route('admin/hiring', 'routes/admin/hiring.tsx'),
      route('admin/hiring/:requestId', 'routes/admin/hiring-request.tsx'),
      // The public site's content (decision 242): one tab per kind, each item's form with a preview.
      layout('routes/admin/content/layout.tsx', [
        route('admin/content', 'routes/admin/content/index.tsx'),
        route('admin/content/:kind', 'routes/admin/content/list.tsx'),
        route('admin/content/:kind/new', 'routes/admin/content/edit.tsx', { id: 'admin-content-new' }),
        route('admin/content/:kind/:id', 'routes/admin/content/edit.tsx', { id: 'admin-content-edit' }),
      ]),
      route('admin/users', 'routes/admin/users.tsx'),
      route('admin/users/:userId', 'routes/admin/user.tsx'),
      route('admin/audit', 'routes/admin/audit.tsx'),
      route('admin/verifications', 'routes/admin/verifications.tsx'),
      route('admin/project-review', 'routes/admin/project-review.tsx'),
      route('admin/project-review/rule', 'routes/admin/project-review-rule.tsx'),
      route('admin/categories', 'routes/admin/catalogue/categories.tsx'),
      route('admin/categories/import', 'routes/admin/catalogue/import.tsx'),
      route('admin/categories/:categoryId', 'routes/admin/catalogue/category.tsx'),
    ]),
    route('*', 'routes/catch-all.tsx'),
  ]),
  // Form targets and resource routes of the shell (no page of their own).
  route('set-language', 'routes/set-language.tsx'),
  route('newsletter', 'routes/newsletter.tsx'),
  route('search', 'routes/search.tsx'),
  route('projects/files/:fileId', 'routes/projects/file.tsx'),
  route('chats/files/:fileId', 'routes/projects/file.tsx', { id: 'chat-file' }),
  route('ticketSupport/files/:fileId', 'routes/projects/file.tsx', { id: 'complaint-file' }),
  route('search/suggest', 'routes/search-suggest.tsx'),
  route('notifications/read-all', 'routes/notifications-read-all.tsx'),
  route('notifications/:id/read', 'routes/notifications-read.tsx'),
  route('invoices/:invoiceId/pdf', 'routes/payments/invoice-pdf.tsx'),
  route('projects/transmittal/:transmittalId/pdf', 'routes/projects/transmittal-pdf.tsx'),
  route('statements.csv', 'routes/payments/statements-csv.tsx'),
  route('admin/categories/export/:format', 'routes/admin/catalogue/export.tsx'),
  route('admin/verifications/:id/document', 'routes/admin/verification-document.tsx'),
  ...benchPages,
  // Every component of the design system in every state (development and e2e only; decision 110).
  route('_styleguide', 'routes/styleguide.tsx'),
] satisfies RouteConfig
