// The facet tokens of a project document (decision 060): category, subcategory, skills, budget type,
// budget bounds, experience level, country, currency, remote and publication day, so every filter
// of Find Project is an intersection inside the full-text index rather than a scan of the project
// table. A document carries them in a column of their own, which words are never matched against.

/** The columns of a project that its facets are made of. */
export interface FacetSource {
  category_id: number | null
  subcategory_id: number | null
  budget_type: string
  budget_minor: number
  experience_level: string | null
  country: string | null
  currency: string
  remote: number
  published_at: string | null
}

const DAY = 86_400_000
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')
/** Days are also grouped in periods of eight (by days since 1970), so 30 days ask ~10 tokens, not 31. */
const PERIOD_BITS = 3
/**
 * Budget buckets double in size (minor units). Each project carries "at least 2^k" (`a<k>`) and
 * "below 2^(k+1)" (`u<k>`) tokens for every k its bucket allows within [LOW_BUCKET, HIGH_BUCKET], so
 * a budget range asks one token per bound instead of an OR of buckets, which GIN merges slowly.
 */
const budgetBucket = (minor: number) => Math.floor(Math.log2(Math.max(1, minor)))
const LOW_BUCKET = 10
const HIGH_BUCKET = 30
/** Marks a facet among the words of PostgreSQL's project_term (a search word is letters and digits only). */
export const FACET = '~'
/**
 * PostgreSQL's project_term also marks each project's block of 4,096 project ids (`~w24`), so the
 * index can be asked for the matches among the newest blocks only (migration 0018).
 */
export const BLOCK_BITS = 12
export const blockFacet = (block: number) => `w${block}`

export function facetTokens(p: FacetSource, skillIds: readonly number[]) {
  const tokens = ['open', `t${p.budget_type}`, `m${p.currency.toLowerCase()}`, `r${p.remote ? 1 : 0}`]
  const bucket = budgetBucket(p.budget_minor)
  for (let k = LOW_BUCKET; k <= Math.min(bucket, HIGH_BUCKET); k++) tokens.push(`a${k}`)
  for (let k = Math.max(bucket, LOW_BUCKET); k <= HIGH_BUCKET; k++) tokens.push(`u${k}`)
  if (p.category_id) tokens.push(`c${p.category_id}`)
  if (p.subcategory_id) tokens.push(`s${p.subcategory_id}`)
  if (p.experience_level) tokens.push(`l${p.experience_level}`)
  if (p.country) tokens.push(`n${p.country.toLowerCase()}`)
  if (p.published_at) {
    const published = Date.parse(p.published_at)
    tokens.push(`d${day(published)}`, `e${Math.floor(published / DAY) >> PERIOD_BITS}`)
  }
  for (const id of skillIds) tokens.push(`k${id}`)
  return tokens
}

/** The day and period tokens that cover the days from `since` to `now` (whole UTC days). */
function dayTokens(since: number, now: number) {
  const tokens: string[] = []
  const last = Math.floor(now / DAY)
  for (let d = Math.floor(since / DAY); d <= last;) {
    const period = d >> PERIOD_BITS
    if (d === period << PERIOD_BITS && ((period + 1) << PERIOD_BITS) - 1 <= last) {
      tokens.push(`e${period}`)
      d += 1 << PERIOD_BITS
    } else tokens.push(`d${day(d++ * DAY)}`)
  }
  return tokens
}

/** What Find Project filters on: each entry is a set of tokens of which a project must have one. */
export interface FacetFilter {
  categoryId?: number
  subcategoryId?: number
  skills?: readonly number[]
  budgetType?: string
  budgetMin?: number
  budgetMax?: number
  experienceLevel?: string
  country?: string
  currency?: string
  remote?: boolean
  /** Published at or after this instant (the exact cut is applied on the project row). */
  publishedSince?: number
}

export function facetQuery(f: FacetFilter, now = Date.now()): string[][] {
  const all: string[][] = []
  if (f.categoryId) all.push([`c${f.categoryId}`])
  if (f.subcategoryId) all.push([`s${f.subcategoryId}`])
  if (f.skills?.length) all.push(f.skills.map((id) => `k${id}`))
  if (f.budgetType) all.push([`t${f.budgetType}`])
  if (f.experienceLevel) all.push([`l${f.experienceLevel}`])
  if (f.country) all.push([`n${f.country.toLowerCase()}`])
  if (f.currency) all.push([`m${f.currency.toLowerCase()}`])
  if (f.remote !== undefined) all.push([`r${f.remote ? 1 : 0}`])
  if (f.publishedSince !== undefined) all.push(dayTokens(f.publishedSince, now))
  // The tokens narrow a budget range to its buckets; the exact bounds apply on the project row.
  if (f.budgetMin !== undefined && f.budgetMax !== undefined && f.budgetMin > f.budgetMax) all.push([])
  if (f.budgetMin !== undefined && budgetBucket(f.budgetMin) > LOW_BUCKET)
    all.push([`a${Math.min(budgetBucket(f.budgetMin), HIGH_BUCKET)}`])
  if (f.budgetMax !== undefined && budgetBucket(f.budgetMax) < HIGH_BUCKET)
    all.push([`u${Math.max(budgetBucket(f.budgetMax), LOW_BUCKET)}`])
  return all
}
