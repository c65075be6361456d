import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import {
  savedFilters,
  savedSearch,
  savedSearchChange,
  savedSearchInput,
  unsubscribeInput,
  unsubscribeResult,
} from './schemas.ts'

export * from './schemas.ts'

// Saved searches and job alerts (issue 41 item 1, decision 328). A saved search is its owner's
// alone: another person's id answers 404. The digest's unsubscribe link is public: its signed token
// is the only proof asked for.
const tag = 'Alerts'
const params = z.object({ id: recordId })

export const alertsContract = {
  list: endpoint({
    method: 'GET',
    path: 'SavedSearches',
    summary: "The caller's saved searches, oldest first, with the matches waiting for the next digest",
    tag,
    access: 'user',
    response: z.object({ data: z.array(savedSearch) }),
  }),
  get: endpoint({
    method: 'GET',
    path: 'SavedSearches/{id}',
    summary: "One of the caller's saved searches",
    tag,
    access: 'user',
    params,
    response: savedSearch,
  }),
  create: endpoint({
    method: 'POST',
    path: 'SavedSearches',
    summary:
      'Saves a search with a name: a freelancer a Find Project search (kind project), a client a Find Freelancers search (kind freelancer)',
    tag,
    access: 'user',
    body: savedSearchInput,
    response: savedSearch,
  }),
  change: endpoint({
    method: 'PUT',
    path: 'SavedSearches/{id}',
    summary:
      "Renames one of the caller's saved searches, switches it on or off, sets its digest's frequency or replaces its filters",
    tag,
    access: 'user',
    params,
    body: savedSearchChange.extend({ filters: savedFilters.optional() }),
    response: savedSearch,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'SavedSearches/{id}',
    summary: "Deletes one of the caller's saved searches with its waiting matches",
    tag,
    access: 'user',
    params,
    response: z.object({ deleted: z.literal(true) }),
  }),
  unsubscribe: endpoint({
    method: 'POST',
    path: 'SavedSearches/Unsubscribe',
    summary:
      "Stops a saved search's email digest from the link in a digest, without signing in; a spent link changes nothing and answers `already`",
    tag,
    access: 'public',
    body: unsubscribeInput,
    response: unsubscribeResult,
  }),
}
