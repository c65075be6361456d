import type { Locale } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import type { FileService } from '../files/service.ts'
import type { SearchQuery } from './contract.ts'
import { clientEditors } from './client-editing.ts'
import { callerCompleteness } from './completeness.ts'
import { freelancerFieldEditors } from './freelancer-editing.ts'
import { hitsOf, suggestFreelancers, searchFreelancers } from './freelancer-search.ts'
import {
  certificationEditors,
  educationEditors,
  employmentEditors,
  languageEditors,
} from './freelancer-sections.ts'
import { ownFreelancer, publicFreelancer } from './freelancer-view.ts'
import { indexFreelancer } from './listing.ts'
import { paymentMethods } from './payment-methods.ts'
import { portfolioEditors } from './portfolio.ts'
import { registerProfileFiles } from './profile-files.ts'
import { profileImages } from './profile-images.ts'
import { rateSheetEditors } from './rate-sheet.ts'
import { searchFacets } from './search-facets.ts'
import { createSearchIndex } from './search-index.ts'
import type { ProfilesDeps, Trx } from './shared.ts'
import { percentFor } from './stored-completeness.ts'

/**
 * The profiles of freelancers, individual clients and companies, their images and files, the
 * freelancers' payment methods, and Find Freelancers, assembled from one module per use case.
 * Every write is scoped to the caller's own rows: another user's items answer 404, another kind of
 * account 403.
 */
export function createProfilesService({
  db,
  dialect,
  files,
}: {
  db: DB
  dialect: Dialect
  files: FileService
}) {
  const deps: ProfilesDeps = { db, dialect, files, index: createSearchIndex(db, dialect) }
  registerProfileFiles(db, files)
  return {
    freelancer: {
      mine: (caller: Caller, locale: Locale) => ownFreelancer(db, caller, locale),
      public: (userId: number, locale: Locale) => publicFreelancer(db, userId, locale),
      ...freelancerFieldEditors(deps),
      ...languageEditors(deps),
      ...educationEditors(deps),
      ...employmentEditors(deps),
      ...certificationEditors(deps),
      ...portfolioEditors(deps),
    },
    rateSheet: rateSheetEditors(deps),
    clients: clientEditors(db),
    images: profileImages(deps),
    payments: paymentMethods(db),
    search: (caller: Caller, locale: Locale, query: SearchQuery) =>
      searchFreelancers(deps, caller, locale, query),
    searchFacets: (caller: Caller, locale: Locale) => searchFacets(db, caller, locale),
    suggestions: (caller: Caller, term: string) => suggestFreelancers(deps, caller, term),
    /** Find Freelancers' cards of these freelancers, in this order (for the saved freelancers' list). */
    hits: (ids: number[], locale: Locale) => hitsOf(db, ids, locale),
    completeness: (caller: Caller, locale?: Locale) => callerCompleteness(db, caller, locale),
    /** For identity: the stored completeness it folds into wengazPercentage. */
    percentFor: (userId: number, executor: Trx = db) => percentFor(executor, userId),
    /** Identity's hook when an account's name changes, in its transaction: the search document carries the name. */
    renamed: (executor: Trx, userId: number) => indexFreelancer(executor as DB, dialect, userId),
  }
}

export type ProfilesService = ReturnType<typeof createProfilesService>
