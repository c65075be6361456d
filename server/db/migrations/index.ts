import type { Migration } from './helpers.ts'
import { catalogue } from './0001-catalogue.ts'
import { identity } from './0002-identity.ts'
import { content } from './0003-content.ts'
import { files } from './0004-files.ts'
import { profiles } from './0005-profiles.ts'
import { projects } from './0006-projects.ts'
import { profileCompleteness } from './0007-profile-completeness.ts'
import { freelancerSearchOrder } from './0008-freelancer-search-order.ts'
import { projectSearchFacets } from './0009-project-search-facets.ts'
import { freelancerListing } from './0010-freelancer-listing.ts'
import { notifications } from './0011-notifications.ts'
import { projectSearchTerms } from './0012-project-search-terms.ts'
import { freelancerRateSheet } from './0013-freelancer-rate-sheet.ts'
import { freelancerSearchTerms } from './0014-freelancer-search-terms.ts'
import { freelancerSearchFacets } from './0015-freelancer-search-facets.ts'
import { freelancerSortBuckets } from './0016-freelancer-sort-buckets.ts'
import { freelancerLexemes } from './0017-freelancer-lexemes.ts'
import { projectSearchRanges } from './0018-project-search-ranges.ts'
import { newsletterConfirmation } from './0019-newsletter-confirmation.ts'
import { seedMarker } from './0020-seed-marker.ts'
import { freelancerNames } from './0021-freelancer-names.ts'
import { chat } from './0022-chat.ts'
import { paymentsLedger } from './0023-payments-ledger.ts'
import { refunds } from './0024-refunds.ts'
import { payouts } from './0025-payouts.ts'
import { invoices } from './0026-invoices.ts'
import { stripeAccounts } from './0027-stripe.ts'
import { complaints } from './0028-complaints.ts'
import { disputes } from './0029-disputes.ts'
import { contentAdmin } from './0031-content-admin.ts'
import { secondFactor } from './0034-second-factor.ts'
import { deletedNames } from './0035-deleted-names.ts'
import { complaintSubjectNames } from './0036-complaint-subject-names.ts'
import { disputeTickets } from './0037-dispute-tickets.ts'
import { invoiceDetails } from './0038-invoice-details.ts'
import { wordedByTheReader } from './0039-worded-by-the-reader.ts'
import { changeOrders } from './0040-change-orders.ts'
import { deliverablesRegister } from './0041-deliverables-register.ts'
import { hourlyTerms } from './0042-hourly-terms.ts'
import { timesheets } from './0043-timesheets.ts'
import { savedSearches } from './0045-saved-searches.ts'
import { notificationPreferences } from './0046-notification-preferences.ts'
import { closingAccounts } from './0047-closing-accounts.ts'
import { dataExports } from './0048-data-exports.ts'
import { identityVerification } from './0049-identity-verification.ts'
import { payoutOnboarding } from './0050-payout-onboarding.ts'
import { gatewayCustomers } from './0051-gateway-customers.ts'
import { invitationsAndVisibility } from './0052-invitations-and-visibility.ts'
import { favouritesAndShortlists } from './0053-favourites-and-shortlists.ts'
import { pushSubscriptions } from './0054-push-subscriptions.ts'
import { hiringRequests } from './0055-hiring-requests.ts'
import { projectReview } from './0056-project-review.ts'
import { directOffers } from './0057-direct-offers.ts'
import { alertTargets } from './0058-alert-targets.ts'

// Append only: a migration that has run anywhere is never edited, a new one is added below.
export const migrations: Record<string, Migration> = {
  '0001-catalogue': catalogue,
  '0002-identity': identity,
  '0003-content': content,
  '0004-files': files,
  '0005-profiles': profiles,
  '0006-projects': projects,
  '0007-profile-completeness': profileCompleteness,
  '0008-freelancer-search-order': freelancerSearchOrder,
  '0009-project-search-facets': projectSearchFacets,
  '0010-freelancer-listing': freelancerListing,
  '0011-notifications': notifications,
  '0012-project-search-terms': projectSearchTerms,
  '0013-freelancer-rate-sheet': freelancerRateSheet,
  '0014-freelancer-search-terms': freelancerSearchTerms,
  '0015-freelancer-search-facets': freelancerSearchFacets,
  '0016-freelancer-sort-buckets': freelancerSortBuckets,
  '0017-freelancer-lexemes': freelancerLexemes,
  '0018-project-search-ranges': projectSearchRanges,
  '0019-newsletter-confirmation': newsletterConfirmation,
  '0020-seed-marker': seedMarker,
  '0021-freelancer-names': freelancerNames,
  '0022-chat': chat,
  '0023-payments-ledger': paymentsLedger,
  '0024-refunds': refunds,
  '0025-payouts': payouts,
  '0026-invoices': invoices,
  '0027-stripe': stripeAccounts,
  '0028-complaints': complaints,
  '0029-disputes': disputes,
  '0031-content-admin': contentAdmin,
  '0034-second-factor': secondFactor,
  '0035-deleted-names': deletedNames,
  '0036-complaint-subject-names': complaintSubjectNames,
  '0037-dispute-tickets': disputeTickets,
  '0038-invoice-details': invoiceDetails,
  '0039-worded-by-the-reader': wordedByTheReader,
  '0040-change-orders': changeOrders,
  '0041-deliverables-register': deliverablesRegister,
  '0042-hourly-terms': hourlyTerms,
  '0043-timesheets': timesheets,
  '0045-saved-searches': savedSearches,
  '0046-notification-preferences': notificationPreferences,
  '0047-closing-accounts': closingAccounts,
  '0048-data-exports': dataExports,
  '0049-identity-verification': identityVerification,
  '0050-payout-onboarding': payoutOnboarding,
  '0051-gateway-customers': gatewayCustomers,
  '0052-invitations-and-visibility': invitationsAndVisibility,
  '0053-favourites-and-shortlists': favouritesAndShortlists,
  '0054-push-subscriptions': pushSubscriptions,
  '0055-hiring-requests': hiringRequests,
  '0056-project-review': projectReview,
  '0057-direct-offers': directOffers,
  '0058-alert-targets': alertTargets,
}
