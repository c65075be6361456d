// Shared by the API contracts, the service and the web forms (no server imports).
export const budgetTypes = ['fixed', 'hourly'] as const
export const experienceLevels = ['entry', 'intermediate', 'expert'] as const
export const currencies = ['EUR', 'USD', 'GBP', 'CHF'] as const
export const projectSorts = ['newest', 'relevance', 'budget_high', 'budget_low', 'fewest_proposals'] as const
/** "Posted within" filter, in days. */
export const postedWithinDays = [1, 3, 7, 30] as const
/** What the client may ask of `updatestate/{state}`. */
export const clientStates = ['open', 'cancelled', 'completed'] as const
// Funding is not a move of its own: it follows the gateway's confirmation of a payment (modules/payments).
export const installmentActions = ['submit', 'request-changes', 'approve'] as const
export const homeSearchTypes = ['projects', 'workneerer'] as const

export const limits = {
  title: { min: 5, max: 140 },
  description: { min: 20, max: 10_000 },
  coverLetter: { min: 20, max: 5_000 },
  comment: { min: 1, max: 2_000 },
  review: { min: 1, max: 2_000 },
  note: 2_000,
  location: 120,
  skills: 15,
  installments: 20,
  installmentTitle: 120,
  durationDays: 3650,
  /** Hours a week an hourly project expects or an hourly proposal offers (a full working week and then some). */
  hoursPerWeek: 80,
  /** Largest amount in minor units (ten million in the major unit). */
  amountMinor: 1_000_000_000,
  searchTerm: 100,
  pageSize: 50,
  /** Documents (drawings, specifications) attached to a project, a proposal or submitted work. */
  documentKb: 10 * 1024,
  /** Images keep docs/product.md §5's 800 KB rule. */
  imageKb: 800,
  attachmentsPerProject: 20,
  /** A client's words with an invitation, and a freelancer's reason to decline one (decision 335). */
  invitationMessage: 2_000,
  declineReason: 1_000,
}

/** Who sees a project (decision 335): everyone, signed-in people only, or only those its client invited. */
export const projectVisibilities = ['public', 'signed_in', 'invited'] as const
export type ProjectVisibility = (typeof projectVisibilities)[number]

/** Reviews stay hidden until both sides have written or this many days have passed. */
export const REVIEW_HIDDEN_DAYS = 14

/** Days a client has to approve or dispute a submitted timesheet week; unanswered, the system approves it (decision 324). */
export const TIMESHEET_REVIEW_DAYS = 5

export const imageExtensions = ['png', 'jpg', 'jpeg', 'gif', 'tiff', 'bpg']
export function uploadKindOf(fileName: string): 'image' | 'document' {
  const ext = fileName.split('.').pop()?.toLowerCase() ?? ''
  return imageExtensions.includes(ext) ? 'image' : 'document'
}

/** "12.50" or "12,50" → 1250; null when it is not an amount with at most two decimals. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(/\s/g, '').replace(',', '.')
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(t)) return null
  const [whole, frac = ''] = t.split('.')
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}

export function amountText(minor: number) {
  return (minor / 100).toFixed(2)
}

/** Installments of a plan must add up to the fixed price when both are given. */
export function planTotal(plan: ReadonlyArray<{ amountMinor: number }>) {
  return plan.reduce((sum, i) => sum + i.amountMinor, 0)
}

/** Lower case without diacritics: what the full-text index stores and what queries look for. */
export const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()

/** Tokens of a search term: letters and digits, diacritics folded, at most eight ('all' means no term). */
export function searchTokens(term: string | undefined | null) {
  if (!term || term.trim().toLowerCase() === 'all') return []
  return (fold(term).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8)
}
