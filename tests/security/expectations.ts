import type { Access, Endpoint } from '#server/api/contract.ts'
import type { CallSpec } from './calls.ts'
import type { World, Who } from './world.ts'
import { hiringBody, offerBody, projectBody, samplePushKeys, WORLD_PUSH_ENDPOINT } from './world.ts'

// The authorization matrix's expected answers (decision 255). Columns: a visitor, the client who
// owns the world's objects, a company, the freelancer who works for that client, a SuperAdmin, and
// a stranger: a user of the owner's kind who does not own the object (the second client, or the
// second freelancer when the object is the freelancer's).
//   'ok'  the endpoint ran for the caller: neither 401 nor 403, and no 5xx (a 400, 404 or 409 about
//         the object's state is still "let in": the refusals are the cells that say so)
//   'any' a public door: anything but a 5xx
//   401/403/404  exactly that status, and the database unchanged
// Admin/ endpoints need no row: decision 220 fixes their cells (401, 403 for every other role, 'ok'
// for the SuperAdmin). Every public or user endpoint needs a row, so a new one is a decision made
// on purpose: the test fails naming it and printing the row to add.
export const columns = ['visitor', 'client', 'company', 'freelancer', 'admin', 'stranger'] as const
export type Column = (typeof columns)[number]
export type Cell = 'ok' | 'any' | 401 | 403 | 404
export interface Row {
  cells: Record<Column, Cell>
  /** Whose object the path names: the stranger is another user of that kind. */
  owner: 'client' | 'freelancer'
  /** Path parameters, query or body other than the defaults (calls.ts), from the world. */
  call?: (world: World) => CallSpec
  /** Ends sessions: runs after every other cell, in this order (1 the caller's password or email, 2 another user's, 3 logout). */
  endsSession?: 1 | 2 | 3
}

const cells = (spec: string): Record<Column, Cell> => {
  const parts = spec.trim().split(/\s+/)
  if (parts.length !== columns.length) throw new Error(`a row needs ${columns.length} cells: ${spec}`)
  return Object.fromEntries(
    columns.map((c, i) => [c, /^\d+$/.test(parts[i]) ? Number(parts[i]) : parts[i]]),
  ) as Record<Column, Cell>
}

//                 visitor client company freelancer admin stranger
const PUBLIC = cells('any   any    any     any        any   any')
const USER = cells('401   ok     ok      ok         ok    ok')
/** The caller's own freelancer profile: freelancers only. */
const FREELANCER = cells('401 403 403 ok 403 ok')
/** An item of the freelancer's profile or money: the other freelancer does not find it. */
const FREELANCER_ITEM = cells('401 403 403 ok 403 404')
const CLIENT_PROFILE = cells('401 ok 403 403 403 ok')
const COMPANY_PROFILE = cells('401 403 ok 403 403 403')
/** Finding freelancers: the client side. */
const CLIENT_SIDE = cells('401 ok ok 403 403 ok')
/** The contract's objects: its client and its freelancer. */
const PARTIES = cells('401 ok 404 ok 404 404')
/** The client's objects. */
const CLIENT_ONLY = cells('401 ok 404 404 404 404')
/** The client's move on something of both parties: the freelancer is told no. */
const CLIENT_MOVE = cells('401 ok 404 403 404 404')
/** The freelancer's move on something of both parties: the client is told no. */
const FREELANCER_MOVE = cells('401 403 404 ok 404 404')
/** The client's open project: public, so another user is told no rather than "not found". */
const OPEN_PROJECT_CLIENT = cells('401 ok 403 403 403 403')
/** The freelancer's own proposal. */
const PROPOSAL_AUTHOR = cells('401 404 404 ok 404 404')

const row = (c: Record<Column, Cell>, extra: Partial<Row> = {}): Row => ({
  cells: c,
  owner: 'client',
  ...extra,
})
const freelancerRow = (c: Record<Column, Cell>, extra: Partial<Row> = {}): Row =>
  row(c, { owner: 'freelancer', ...extra })
const id =
  (pick: (w: World) => number) =>
  (w: World): CallSpec => ({ params: { id: pick(w) } })
const education = {
  school: 'TU Delft',
  degree: 'MSc',
  fieldOfStudy: 'Structures',
  startYear: 2010,
  endYear: 2012,
  description: 'Timber connections.',
}
/** A call on the world's hourly contract, with this body. */
const timesheet =
  (body?: unknown) =>
  (w: World): CallSpec => ({ params: { projectId: w.ids.timesheetProjectId }, body })
const entry = { date: '2020-01-06', hours: 1, description: 'Checked the connections' }
const bank = { holderName: 'Fred Freelancer', kind: 'bank', iban: 'DE89 3704 0044 0532 0130 00' }

const publicRows = Object.fromEntries(
  [
    ...['languages', 'countries', 'industries', 'categories', 'subcategories', 'skills'].map(
      (d) => `GET settings/dropdowns/${d}`,
    ),
    'GET settings/searchskills',
    'GET categories',
    'GET settings/all-categories',
    'GET settings/all-skills',
    'GET Settings/faq',
    'GET Settings/blogs',
    'GET Settings/blog/{id}',
    'GET Settings/home-boxes',
    'GET Settings/services',
    'GET Settings/logos',
    'GET Settings/pages/{slug}',
    'POST subscribe/{address}',
    'POST subscribe/confirm/{token}',
    'POST subscribe/unsubscribe/{token}',
    'POST notifications/email-off/{userId}/{kind}/{token}',
    'POST support/contact-us',
    'POST identity/register',
    'POST identity/login',
    'POST identity/login/second-factor',
    'GET identity/verify-email',
    'POST identity/resend-verification',
    'POST identity/forget-password',
    'POST identity/Reset-Password',
    'GET identity/confirm-email',
    'GET identity/third-part/providers',
    'POST identity/third-part/authorize',
    'POST identity/login-with-third-part',
    'POST identity/register-with-third-part',
    'GET projects/HomeSearch/{type}/{term}',
    'GET projects/comment/{projectId}',
    'GET projects',
    // The checkout's token is the capability: whoever holds the link pays (decision 171).
    'GET Payment/sandbox/{token}',
    'POST Payment/sandbox/{token}/pay',
    'POST Payment/sandbox/{token}/confirm',
    // The sandbox's onboarding page: the account's unguessable id is the capability (decision 333).
    'GET Payment/sandbox/accounts/{account}',
    'POST Payment/sandbox/accounts/{account}',
    'POST Payment/PaymentCallback',
    // The digest's signed link is the capability (decision 328).
    'POST SavedSearches/Unsubscribe',
  ].map((k) => [k, row(PUBLIC)]),
)

export const rows: Record<string, Row> = {
  ...publicRows,
  // Public profiles, by id.
  'GET clients/{id}/profile': row(PUBLIC, { call: id((w) => w.users.client.id) }),
  'GET clients/{id}/profile/basic-details': row(PUBLIC, { call: id((w) => w.users.client.id) }),
  'GET clients/{id}/profile/image-url': row(PUBLIC, { call: id((w) => w.users.client.id) }),
  'GET companies/{id}/profile/basic-details': row(PUBLIC, { call: id((w) => w.users.company.id) }),
  'GET companies/{id}/profile/image-url': row(PUBLIC, { call: id((w) => w.users.company.id) }),
  'GET freelancers/{id}/profile': row(PUBLIC, { call: id((w) => w.users.freelancer.id) }),
  'GET freelancers/{id}/profile/image': row(PUBLIC, { call: id((w) => w.users.freelancer.id) }),
  'GET projects/reviews/{userId}': row(PUBLIC),

  // The caller's own account.
  'GET identity/profile': row(USER),
  'GET identity/session': row(USER),
  'GET identity/profile-details': freelancerRow(USER),
  'PUT identity/profile': row(USER),
  'POST identity/logout': row(USER, { endsSession: 3 }),
  // One's own authenticator app (decision 260): the matrix's calls carry no valid code, so nothing turns on or off.
  'GET identity/two-factor': row(USER),
  'POST identity/two-factor/setup': row(USER),
  'POST identity/two-factor/enable': row(USER),
  // A SuperAdmin may not turn it off.
  'POST identity/two-factor/disable': row(cells('401 ok ok ok 403 ok')),
  'POST identity/change-password': row(USER, { endsSession: 1 }),
  // Without the password it closes nothing (400); a SuperAdmin's account is closed by another admin.
  'POST identity/close-account': row(cells('401 ok ok ok 403 ok'), {
    call: () => ({ body: { password: 'not it' } }),
  }),
  // One's own data export (decision 331): asking and its state are anyone's own; the archive is its
  // owner's alone, the mailed token opening nothing for anyone else.
  'POST identity/data-export': row(USER),
  'GET identity/data-export': row(USER),
  'GET identity/data-export/download': row(CLIENT_ONLY, {
    call: (w) => ({ query: { token: w.ids.dataExportToken } }),
  }),
  'POST identity/change-email': row(USER, { endsSession: 1 }),
  // Ends another user's sessions: the service lets only a SuperAdmin (its contract says 'user').
  'POST identity/{id}/reset-password': row(cells('401 403 403 403 ok 403'), {
    call: id((w) => w.users.bystander.id),
    endsSession: 2,
  }),
  // A file of an open project: every signed-in user may read it (projects/service.ts read policy).
  'GET files/{id}/download': row(USER, { call: id((w) => w.ids.fileId) }),

  // Freelancer profiles: the caller's own.
  ...Object.fromEntries(
    [
      'GET freelancers/profile',
      'GET freelancers/profile/image',
      'POST freelancers/profile/image',
      'DELETE freelancers/profile/image',
      ...[
        'description',
        'title',
        'title-overview',
        'experience-level',
        'years-of-experience',
        'country',
        'availability',
        'hourly-rate',
        'categorization',
        'gender',
        'details',
      ].map((f) => `PUT freelancers/profile/${f}`),
      'POST freelancers/profile/languages',
      'PUT freelancers/profile/languages/{code}',
      'DELETE freelancers/profile/languages/{code}',
      'POST freelancers/profile/employment-history',
      'POST freelancers/profile/certifications',
      'POST freelancers/profile/portfolios',
      'POST freelancers/profile/rate-sheet',
      'DELETE freelancers/profile/rate-sheet',
      'POST freelancers/AddFreelancerPaymentMethod',
    ].map((k) => [k, freelancerRow(FREELANCER)]),
  ),
  'POST freelancers/profile/educations': freelancerRow(FREELANCER, { call: () => ({ body: education }) }),
  'PUT freelancers/profile/educations/{id}': freelancerRow(FREELANCER_ITEM, {
    call: (w) => ({ params: { id: w.ids.educationId }, body: education }),
  }),
  'DELETE freelancers/profile/educations/{id}': freelancerRow(FREELANCER_ITEM, {
    call: id((w) => w.ids.educationId),
  }),
  ...Object.fromEntries(
    ['employment-history', 'certifications', 'portfolios'].flatMap((item) =>
      [`PUT freelancers/profile/${item}/{id}`, `DELETE freelancers/profile/${item}/{id}`].map((k) => [
        k,
        freelancerRow(FREELANCER_ITEM, { call: id((w) => w.ids.profileItems[item]) }),
      ]),
    ),
  ),
  'POST freelancers/profile/portfolios/{id}/image': freelancerRow(FREELANCER_ITEM, {
    call: id((w) => w.ids.profileItems.portfolios),
  }),
  'POST freelancers/profile/portfolios/{id}/file': freelancerRow(FREELANCER_ITEM, {
    call: id((w) => w.ids.profileItems.portfolios),
  }),
  // Payment methods: the freelancer's own; another freelancer asking for the list is refused.
  'GET freelancers/{id}/GetAllPaymentMethodsForFreelancer': freelancerRow(cells('401 403 403 ok 403 403'), {
    call: id((w) => w.users.freelancer.id),
  }),
  'PUT freelancers/UpdatePaymentMethod/{id}': freelancerRow(FREELANCER_ITEM, {
    call: (w) => ({ params: { id: w.ids.paymentMethodId }, body: bank }),
  }),
  'PUT freelancers/UpdatePaymentMethodStatus/{id}': freelancerRow(FREELANCER_ITEM, {
    call: id((w) => w.ids.paymentMethodId),
  }),
  'DELETE freelancers/DeletePaymentMethod/{id}': freelancerRow(FREELANCER_ITEM, {
    call: id((w) => w.ids.spareMethodId),
  }),

  // Client and company profiles: the caller's own.
  ...Object.fromEntries(
    [
      'GET clients/profile',
      'GET clients/profile/image-url',
      'POST clients/profile/image',
      ...['basic-details', 'who-i-am', 'what-do-I-do', 'description', 'about', 'categorization'].map(
        (f) => `PUT clients/profile/${f}`,
      ),
    ].map((k) => [k, row(CLIENT_PROFILE)]),
  ),
  ...Object.fromEntries(
    [
      'GET companies/profile',
      'GET companies/profile/image-url',
      'POST companies/profile/image',
      ...['basic-details', 'who-are-we', 'what-do-we-do', 'description', 'about'].map(
        (f) => `PUT companies/profile/${f}`,
      ),
    ].map((k) => [k, row(COMPANY_PROFILE)]),
  ),
  'GET freelancers/search': row(CLIENT_SIDE),
  'GET freelancers/suggestions': row(CLIENT_SIDE),
  'GET freelancers/search/facets': row(CLIENT_SIDE),

  // Lists of the caller's own things (the markers prove they hold nobody else's).
  ...Object.fromEntries(
    [
      'GET projects/freelancer/proposals',
      'GET projects/freelancer/contracts',
      'GET projects/wishlist',
      'GET projects/wishlist/ids',
      'GET projects/GetCommentsAndReviewes',
      'GET notifications/count',
      'GET notifications',
      'GET chat/rooms/count',
      'GET chat/rooms/{page}',
      'GET dashboard',
      'GET complaints/subjects',
      'GET complaints',
      'POST complaints',
      'GET Payment/balances',
      'GET Payment/payouts',
      'POST Payment/payouts',
      'GET Payment/invoices',
      'GET Payment/statements',
      'POST projects/subscrib/{projectId}',
      'DELETE projects/subscrib/{projectId}',
      'POST projects/comment/{projectId}',
      'POST projects/{projectId}/wishlist',
      'DELETE projects/{projectId}/wishlist',
    ].map((k) => [k, row(USER)]),
  ),
  // The caller's own payout account at the gateway (decision 333): freelancers only.
  'GET Payment/payout-account': freelancerRow(FREELANCER),
  'POST Payment/payout-account': freelancerRow(FREELANCER),
  'GET projects/client': row(USER, { call: () => ({ query: {} }) }),
  'POST projects': row(cells('401 ok ok 403 403 ok'), {
    call: (w) => ({ body: projectBody(w.ids.subcategoryId, 'A new footbridge check', true) }),
  }),
  // Saved freelancers (decision 336): the client side's, each list its owner's; a project's
  // shortlist and its private notes are its client's alone (404 to anyone else, the proposal's author too).
  'GET freelancers/favourites': row(CLIENT_SIDE),
  'GET freelancers/favourites/ids': row(CLIENT_SIDE, {
    call: (w) => ({ query: { userIds: [w.users.freelancer.id] } }),
  }),
  'PUT freelancers/{userId}/favourite': row(CLIENT_SIDE),
  'DELETE freelancers/{userId}/favourite': row(CLIENT_SIDE),
  'GET projects/{projectId}/shortlist': row(CLIENT_ONLY, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId } }),
  }),
  'PUT projects/proposals/{proposalId}/shortlist': row(CLIENT_ONLY, {
    call: () => ({ body: { note: 'Worth a call' } }),
  }),
  'DELETE projects/proposals/{proposalId}/shortlist': row(CLIENT_ONLY),
  // Hiring help (decision 338): asked by those who hire; each request its author's alone (404 to
  // anyone else). The company ends its own two; support's side is the admin rows below.
  'POST hiring/requests': row(CLIENT_SIDE, {
    call: () => ({ body: hiringBody('A structural engineer for a loft conversion.') }),
  }),
  'GET hiring/requests': row(CLIENT_SIDE),
  'GET hiring/requests/{requestId}': row(CLIENT_ONLY, {
    call: (w) => ({ params: { requestId: w.ids.hiringRequestId } }),
  }),
  'POST hiring/requests/{requestId}/done': row(cells('401 404 ok 404 404 404'), {
    call: (w) => ({ params: { requestId: w.ids.hiringDoneId } }),
  }),
  'POST hiring/requests/{requestId}/cancel': row(cells('401 404 ok 404 404 404'), {
    call: (w) => ({ params: { requestId: w.ids.hiringCancelId } }),
  }),
  // Saved searches (decision 328): the caller's own list; saving a Find Project search is a
  // freelancer's; one search is its owner's alone (404 to anyone else).
  // Verified identity (decision 332): anyone signed in reads their own state; only freelancers and
  // companies ask (the second freelancer's request is open: 409).
  'GET verification': row(USER),
  'POST verification': freelancerRow(cells('401 403 ok ok 403 ok')),
  'GET SavedSearches': row(USER),
  'POST SavedSearches': freelancerRow(cells('401 403 403 ok 403 ok'), {
    call: () => ({ body: { name: 'Footbridges', search: 'footbridge' } }),
  }),
  ...Object.fromEntries(
    ['GET', 'PUT', 'DELETE'].map((m) => [
      `${m} SavedSearches/{id}`,
      freelancerRow(cells('401 404 404 ok 404 404'), {
        call: (w) => ({
          params: { id: w.ids.savedSearchId },
          ...(m === 'PUT' ? { body: { name: 'Renamed' } } : {}),
        }),
      }),
    ]),
  ),
  // Invitations (decision 335): the freelancer's own list and answers; the invite-only project's
  // invitations are its client's (everyone else is told it does not exist).
  'GET projects/invitations': row(USER),
  'POST projects/invitations/{invitationId}/accept': freelancerRow(cells('401 404 404 ok 404 404'), {
    call: (w) => ({ params: { invitationId: w.ids.invitationId } }),
  }),
  'POST projects/invitations/{invitationId}/decline': freelancerRow(cells('401 404 404 ok 404 404'), {
    call: (w) => ({ params: { invitationId: w.ids.invitationId }, body: { reason: 'Booked up' } }),
  }),
  // Direct offers (decision 342): clients make them; an offer is its two parties' (everyone else is
  // told it does not exist); the freelancer answers it, the client withdraws it.
  'POST offers': row(CLIENT_SIDE, {
    call: (w) => ({
      body: offerBody('Arch survey of a stone bridge', w.ids.subcategoryId, w.users.freelancer.id),
    }),
  }),
  'GET offers/sent': row(USER),
  'GET offers/received': row(USER),
  'GET offers/{offerId}': row(PARTIES, { call: (w) => ({ params: { offerId: w.ids.offerId } }) }),
  'POST offers/{offerId}/accept': freelancerRow(cells('401 404 404 ok 404 404'), {
    call: (w) => ({ params: { offerId: w.ids.offerId } }),
  }),
  'POST offers/{offerId}/decline': freelancerRow(cells('401 404 404 ok 404 404'), {
    call: (w) => ({ params: { offerId: w.ids.offerDeclineId }, body: { reason: 'Booked up' } }),
  }),
  'POST offers/{offerId}/withdraw': row(CLIENT_ONLY, {
    call: (w) => ({ params: { offerId: w.ids.offerWithdrawId } }),
  }),
  'GET projects/{projectId}/invitations': row(CLIENT_ONLY, {
    call: (w) => ({ params: { projectId: w.ids.invitedProjectId } }),
  }),
  'POST projects/{projectId}/invitations': row(CLIENT_ONLY, {
    call: (w) => ({
      params: { projectId: w.ids.invitedProjectId },
      body: { freelancerId: w.users.company.id, message: 'Please have a look' },
    }),
  }),
  'GET notificationHub/notifications/{userId}': freelancerRow(cells('401 403 403 ok 403 403')),
  'GET notificationHub/unreadNotifications/{userId}': freelancerRow(cells('401 403 403 ok 403 403')),
  'PUT notifications/read': row(USER),
  'GET notifications/preferences': row(USER),
  'PUT notifications/preferences': row(USER, {
    call: () => ({ body: { preferences: [{ kind: 'money', site: true, email: true }] } }),
  }),
  // Web Push (decision 337): the key is public; a browser's subscription is its owner's alone.
  'GET notifications/push-key': row(PUBLIC),
  'POST notifications/push-subscriptions': row(USER, {
    call: () => ({ body: { endpoint: 'https://push.example/matrix', keys: samplePushKeys } }),
  }),
  'DELETE notifications/push-subscriptions': row(CLIENT_ONLY, {
    call: () => ({ body: { endpoint: WORLD_PUSH_ENDPOINT } }),
  }),
  'PUT notifications/{id}/read': row(CLIENT_ONLY, { call: id((w) => w.ids.notificationId) }),
  'PUT notificationHub/UpdateReadStatusForNotification/{id}': row(CLIENT_ONLY, {
    call: id((w) => w.ids.notificationId),
  }),

  // The contract's project: its client and its freelancer.
  ...Object.fromEntries(
    [
      'GET projects/{projectId}/attachments',
      'GET projects/{projectId}/details-for-freelancer',
      'GET projects/{projectId}/activities',
      'GET projects/{projectId}/cost-details',
      'GET projects/{projectId}/paid-details',
      'GET projects/{projectId}/refund-requests',
      'GET Payment/invoices/{invoiceId}',
      'POST projects/contracts/{contractId}/review',
    ].map((k) => [k, row(PARTIES)]),
  ),
  'GET projects/{projectId}/details-for-client': row(CLIENT_ONLY),
  'GET projects/{projectId}/client-proposals': row(OPEN_PROJECT_CLIENT, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId }, query: {} }),
  }),
  'PUT projects/{projectId}': row(OPEN_PROJECT_CLIENT, {
    call: (w) => ({
      params: { projectId: w.ids.openProjectId },
      body: projectBody(w.ids.subcategoryId, 'Foundation review for an extension', true),
    }),
  }),
  'DELETE projects/{projectId}': row(CLIENT_ONLY, {
    call: (w) => ({ params: { projectId: w.ids.draftProjectId } }),
  }),
  'POST projects/{projectId}/uploadProjectFiles': row(CLIENT_ONLY, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId } }),
  }),
  'DELETE projects/{projectId}/attachments/{fileId}': row(CLIENT_ONLY, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId } }),
  }),
  'PUT projects/{projectId}/updatestate/{state}': row(CLIENT_ONLY),
  'POST projects/Createroom/{projectId}/{userId}': row(CLIENT_ONLY),
  'POST projects/installments/{installmentId}/{action}': row(CLIENT_MOVE),
  // The deliverables register (decision 318): its two parties see it; the freelancer adds and
  // issues, the client answers.
  'GET projects/{projectId}/deliverables': row(PARTIES),
  'POST projects/{projectId}/deliverables': row(FREELANCER_MOVE, {
    call: (w) => ({
      body: { number: 'S-900', title: 'Late', discipline: 'Structures', installmentId: w.ids.installmentId },
    }),
  }),
  'GET projects/deliverables/{deliverableId}': row(PARTIES),
  'POST projects/deliverables/{deliverableId}/issues': row(FREELANCER_MOVE, {
    call: () => ({ body: { revision: 'P02', status: 'for_approval', note: 'Again' } }),
  }),
  'POST projects/{projectId}/transmittals': row(FREELANCER_MOVE, {
    call: (w) => ({
      body: {
        installmentId: w.ids.installmentId,
        status: 'for_approval',
        note: 'Again',
        items: [{ deliverableId: w.ids.deliverableId, revision: 'P02' }],
      },
    }),
  }),
  'POST projects/deliverable-issues/{issueId}/answer': row(CLIENT_MOVE, {
    call: () => ({ body: { outcome: 'approved' } }),
  }),
  'GET projects/transmittals/{transmittalId}': row(PARTIES),
  'POST RefundRequest/{projectId}/{installmentId}/{amount}': row(CLIENT_ONLY, {
    call: (w) => ({ params: { installmentId: w.ids.heldInstallmentId } }),
  }),
  'POST refund-requests/{requestId}/accept': row(FREELANCER_MOVE),
  'POST refund-requests/{requestId}/decline': row(FREELANCER_MOVE),
  'POST refund-requests/{requestId}/dispute': row(CLIENT_MOVE),
  // Change orders (decision 319): either party proposes; the world's was proposed by the freelancer.
  'GET projects/{projectId}/change-orders': row(PARTIES),
  'POST projects/{projectId}/change-orders': row(PARTIES, {
    call: () => ({
      body: {
        description: 'A second storey',
        reason: 'The client asked for it',
        effects: [{ kind: 'deadline', dueDate: '2099-12-31' }],
      },
    }),
  }),
  'POST projects/{projectId}/change-orders/{changeOrderId}/accept': row(CLIENT_MOVE),
  'POST projects/{projectId}/change-orders/{changeOrderId}/reject': row(CLIENT_MOVE),
  'POST projects/{projectId}/change-orders/{changeOrderId}/withdraw': row(FREELANCER_MOVE),
  // Timesheets of the world's hourly contract (decision 324): its two parties read them; the
  // freelancer logs and submits, the client approves or disputes.
  'GET projects/{projectId}/timesheets': row(PARTIES, {
    call: (w) => ({ ...timesheet()(w), query: { week: '2020-01-06' } }),
  }),
  'POST projects/{projectId}/timesheets/entries': row(FREELANCER_MOVE, { call: timesheet(entry) }),
  'PUT projects/{projectId}/timesheets/entries/{entryId}': row(FREELANCER_MOVE, { call: timesheet(entry) }),
  'DELETE projects/{projectId}/timesheets/entries/{entryId}': row(FREELANCER_MOVE, { call: timesheet() }),
  'POST projects/{projectId}/timesheets/weeks/{weekId}/submit': row(FREELANCER_MOVE, { call: timesheet() }),
  'POST projects/{projectId}/timesheets/weeks/{weekId}/approve': row(CLIENT_MOVE, { call: timesheet() }),
  'POST projects/{projectId}/timesheets/weeks/{weekId}/dispute': row(CLIENT_MOVE, {
    call: timesheet({ reason: 'Tuesday was a holiday' }),
  }),
  'GET Payment/PayProjectInstallments': row(CLIENT_ONLY, {
    call: (w) => ({ query: { projectId: w.ids.projectId, installmentIds: [w.ids.heldInstallmentId] } }),
  }),
  'POST Payment/PayProjectInstallments': row(CLIENT_ONLY, {
    call: (w) => ({ body: { projectId: w.ids.projectId, installmentIds: [w.ids.heldInstallmentId] } }),
  }),

  // Proposals on the open project: its client decides; the author edits or withdraws.
  'POST projects/{projectId}/proposal': freelancerRow(cells('401 403 403 ok 403 ok'), {
    call: (w) => ({
      params: { projectId: w.ids.openProjectId },
      body: {
        coverLetter: 'I can start on Monday and deliver within two weeks.',
        bidMinor: 70000,
        durationDays: 14,
      },
    }),
  }),
  'GET projects/proposals/{proposalId}/revisions': freelancerRow(cells('401 ok 404 ok 404 404')),
  'PUT projects/proposals/{proposalId}': freelancerRow(PROPOSAL_AUTHOR, {
    call: () => ({
      body: {
        coverLetter: 'I review foundations weekly and can start at once.',
        bidMinor: 74000,
        durationDays: 8,
      },
    }),
  }),
  'POST projects/proposals/{proposalId}/withdraw': freelancerRow(PROPOSAL_AUTHOR),
  'POST projects/proposals/{proposalId}/accept/{projectId}': row(OPEN_PROJECT_CLIENT, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId } }),
  }),
  'POST projects/proposals/{proposalId}/reject/{projectId}': row(OPEN_PROJECT_CLIENT, {
    call: (w) => ({ params: { projectId: w.ids.openProjectId } }),
  }),

  // The contract's chat room: its two members.
  'GET chat/user-info/{userId}': row(PARTIES),
  'GET chat/{roomId}': row(PARTIES),
  'POST chat/{roomId}': row(PARTIES),
  'POST chat/{roomId}/read': row(PARTIES),
  'GET chat/{roomId}/count-unread': row(PARTIES),

  // One's own invoice details (decision 311).
  'GET Payment/invoice-details': row(USER),
  'PUT Payment/invoice-details': row(USER),
  // The client's complaint: theirs (support answers it through Admin/complaints).
  // The complaint is about the contract: its other party reads and answers it (decision 232).
  'GET complaints/{complaintId}': row(PARTIES),
  'POST complaints/{complaintId}/messages': row(PARTIES),
}

const ADMIN = cells('401 403 403 403 ok 403')
/** Admin acts that end someone's sessions aim at the bystander and run after every other cell. */
const onBystander = (w: World): CallSpec => ({
  params: { userId: w.users.bystander.id },
  body: { reason: 'Matrix check' },
})
const adminRows: Record<string, Row> = {
  ...Object.fromEntries(
    ['suspend', 'unsuspend', 'delete', 'reset-password'].map((act) => [
      `POST Admin/users/{userId}/${act}`,
      row(ADMIN, { call: onBystander, endsSession: 2 }),
    ]),
  ),
  // The second freelancer's pending request: its document is read (GET runs first), then decided.
  'GET Admin/verifications/{id}/document': row(ADMIN, {
    call: (w) => ({ params: { id: w.ids.verificationId } }),
  }),
  'POST Admin/verifications/{id}/decide': row(ADMIN, {
    call: (w) => ({
      params: { id: w.ids.verificationId },
      body: { decision: 'reject', reason: 'Matrix check' },
    }),
  }),
  // A hiring request (decision 338): the client's for reading, taking and proposing, the second
  // client's for closing, so that no cell's change refuses another's.
  ...Object.fromEntries(
    ['GET Admin/hiring-requests/{requestId}', 'POST Admin/hiring-requests/{requestId}/claim'].map((k) => [
      k,
      row(ADMIN, { call: (w) => ({ params: { requestId: w.ids.hiringRequestId } }) }),
    ]),
  ),
  'POST Admin/hiring-requests/{requestId}/proposal': row(ADMIN, {
    call: (w) => ({
      params: { requestId: w.ids.hiringRequestId },
      body: { freelancers: [{ userId: w.users.freelancer.id, note: 'Matrix check' }] },
    }),
  }),
  'POST Admin/hiring-requests/{requestId}/close': row(ADMIN, {
    call: (w) => ({ params: { requestId: w.ids.hiringCloseId }, body: { reason: 'Matrix check' } }),
  }),
  // Granting a role ends the account's sessions too (decision 265).
  'POST Admin/users/{userId}/super-admin': row(ADMIN, {
    call: (w) => ({ ...onBystander(w), body: { change: 'grant', reason: 'Matrix check' } }),
    endsSession: 2,
  }),
}

/** The expected row of an endpoint: from the table, or from decision 220 for the admin API. */
export function rowFor(e: Pick<Endpoint, 'method' | 'path' | 'access'>): Row | undefined {
  if (e.access === 'admin') return adminRows[`${e.method} ${e.path}`] ?? row(ADMIN)
  return rows[`${e.method} ${e.path}`]
}

/** What to add to the table for an endpoint that has no row yet. */
export function rowToAdd(e: Pick<Endpoint, 'method' | 'path' | 'access'>) {
  const start: Record<Access, string> = {
    public: 'row(PUBLIC)',
    user: 'row(USER)   (or PARTIES, CLIENT_ONLY, FREELANCER_ITEM…)',
    admin: '',
  }
  return `no row for ${e.method} ${e.path} (access '${e.access}') in tests/security/expectations.ts; add:\n  '${e.method} ${e.path}': ${start[e.access]},`
}

/** The caller of a column, for a row whose objects belong to `owner`. */
export function callerOf(world: World, column: Column, owner: Row['owner']): Who | 'visitor' {
  if (column === 'stranger') return owner === 'freelancer' ? 'freelancer2' : 'client2'
  return column
}
