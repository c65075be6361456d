// The rules of profiles that the server enforces and the browser shows: allowed values, length
// limits, money, IBAN checksums, masking and completeness. Pure: no Node APIs, so the web UI
// bundles it too.

export const experienceLevels = ['entry', 'intermediate', 'expert'] as const
export type ExperienceLevel = (typeof experienceLevels)[number]
export const availabilities = ['full-time', 'part-time', 'as-needed', 'not-available'] as const
export type Availability = (typeof availabilities)[number]
export const genders = ['female', 'male', 'other', 'undisclosed'] as const
export const languageLevels = ['basic', 'conversational', 'fluent', 'native'] as const
export type LanguageLevel = (typeof languageLevels)[number]
export const currencies = ['EUR', 'USD', 'GBP', 'CHF'] as const
export type Currency = (typeof currencies)[number]
export const companySizes = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const
export const paymentKinds = ['bank', 'paypal', 'stripe_account'] as const
export const paymentStatuses = ['active', 'inactive'] as const
export const searchSorts = ['relevance', 'rate-asc', 'rate-desc', 'rating', 'experience', 'newest'] as const
export type SearchSort = (typeof searchSorts)[number]

/** Every text field has a limit (characters). */
/** Find Freelancers counts and pages up to this many matches ("1,000+" beyond). */
export const searchCap = 1000

export const limits = {
  title: 120,
  overview: 1000,
  description: 5000,
  city: 80,
  name: 120,
  shortText: 200,
  longText: 2000,
  url: 500,
  email: 254,
  iban: 42,
  bic: 11,
  years: 60,
  /** Hourly rate: 1.00 to 10,000.00 in minor units. */
  rateMin: 100,
  rateMax: 1_000_000,
  languages: 20,
  subcategories: 10,
  skills: 30,
  listItems: 30,
  paymentMethods: 10,
  searchTerm: 100,
  pageSize: 50,
} as const

/** Parses "45", "45.5", "45,50" into minor units; null when it is not an amount. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(',', '.')
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(t)) return null
  const [whole, frac = ''] = t.split('.')
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}

/** Minor units back to the plain amount a form shows ("45.50", "45"). */
export function amountText(minor: number) {
  const whole = Math.trunc(minor / 100)
  const cents = minor % 100
  return cents ? `${whole}.${String(cents).padStart(2, '0')}` : String(whole)
}

/** An IBAN without spaces, upper case. */
export const normalizeIban = (iban: string) => iban.replace(/[\s-]+/g, '').toUpperCase()

/** ISO 13616: country code, two check digits, up to 30 letters and digits; mod-97 of the rearranged number is 1. */
export function isValidIban(input: string) {
  const iban = normalizeIban(input)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const ch of rearranged) {
    const value = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}

/** "DE89 •••• •••• •••• 3000": country, check digits and the last four stay visible. */
export function maskIban(input: string) {
  const iban = normalizeIban(input)
  const hidden = Math.max(0, iban.length - 8)
  const groups = Math.ceil(hidden / 4)
  return [iban.slice(0, 4), ...Array.from({ length: groups }, () => '••••'), iban.slice(-4)].join(' ')
}

/** "j•••@example.com": the first letter of the local part and the domain stay visible. */
export function maskEmail(email: string) {
  const at = email.lastIndexOf('@')
  if (at < 1) return '•••'
  return `${email[0]}•••${email.slice(at)}`
}

/** A Stripe connected account's id (acct_…), the only payout destination Stripe pays (decisions 196, 333). */
export const stripeAccountPattern = /^acct_[A-Za-z0-9]{6,40}$/

/** "acct_••••7Xyz" (the sandbox's "sbx_acct_••••9f3a"): the prefix and the last four stay visible. */
export function maskStripeAccount(account: string) {
  const prefix = account.startsWith('sbx_acct_') ? 'sbx_acct_' : 'acct_'
  return `${prefix}••••${account.slice(-4)}`
}

/** A plain email check that matches what the API accepts (text, at sign, text, dot, text). */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

// ---- completeness --------------------------------------------------------------------------

export const freelancerSections = [
  'image',
  'titleOverview',
  'description',
  'experienceLevel',
  'yearsOfExperience',
  'country',
  'availability',
  'hourlyRate',
  'languages',
  'categorization',
  'educations',
  'employmentHistory',
  'portfolios',
] as const
export const individualSections = [
  'image',
  'basicDetails',
  'whoIAm',
  'whatIDo',
  'description',
  'categorization',
] as const
export const companySections = ['image', 'basicDetails', 'whoAreWe', 'whatDoWeDo', 'description'] as const
export type SectionKey =
  (typeof freelancerSections)[number] | (typeof individualSections)[number] | (typeof companySections)[number]

/** The sections done and missing, and the percentage done (rounded). */
export function completenessOf(done: Partial<Record<SectionKey, boolean>>, sections: readonly SectionKey[]) {
  const missing = sections.filter((s) => !done[s])
  return { percent: Math.round(((sections.length - missing.length) / sections.length) * 100), missing }
}

/** Tokens of a search term: letters and digits, diacritics folded, at most eight. */
export function searchTokens(term: string | undefined | null) {
  if (!term) return []
  return (fold(term).match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8)
}

/** Lower case without diacritics: what the full-text index stores and what queries look for. */
export const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()

/** Where a payment method sends money, and how it is shown: the one place that knows each kind's field. */
export function paymentDestination(method: {
  kind: string
  iban: string | null
  email: string | null
  stripe_account?: string | null
}) {
  if (method.kind === 'bank') return { ref: method.iban ?? '', masked: maskIban(method.iban ?? '') }
  if (method.kind === 'stripe_account')
    return { ref: method.stripe_account ?? '', masked: maskStripeAccount(method.stripe_account ?? '') }
  return { ref: method.email ?? '', masked: maskEmail(method.email ?? '') }
}
