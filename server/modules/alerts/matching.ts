import { fold, searchTokens } from '../projects/rules.ts'
import type { SavedFilters } from './schemas.ts'

// Matching a new project (or a newly listed freelancer) against saved searches without running
// each search's query (decision 328). Every saved search is indexed under the keys of the one
// facet it requires that is most selective: its subcategory, else its category, else each of its
// skills (any one of them must match), else the first three letters of its first word, else its
// budget type, else `all`. A target's keys are every facet it has; the searches stored under those
// keys are the only candidates, and `matches` then checks each candidate's every filter.

/** What alerts know of a target: a project, or a freelancer (no budget or remote). */
export interface AlertTarget {
  categoryId: number | null
  subcategoryIds: readonly number[]
  skillIds: readonly number[]
  /** Its searched text: a project's title, description and skill names; a freelancer's title and overview. */
  text: string
  budgetType?: string
  budgetMinor?: number
  remote?: boolean
}

/** What a stored publication keeps of its target to be matched later (decision 343): its words, not its text. */
export type TargetFacets = Omit<AlertTarget, 'text'> & { words: string[] }

const PREFIX = 3

/** The keys one saved search is stored under (one, or one per skill). */
export function searchKeys(f: SavedFilters): string[] {
  if (f.subcategoryId) return [`s${f.subcategoryId}`]
  if (f.categoryId) return [`c${f.categoryId}`]
  if (f.skills.length) return [...new Set(f.skills)].map((id) => `k${id}`)
  const word = searchTokens(f.search).find((t) => t.length >= PREFIX)
  if (word) return [`w${word.slice(0, PREFIX)}`]
  if (f.budgetType) return [`t${f.budgetType}`]
  return ['all']
}

/** The distinct words of a target's text, folded as the search index folds them (searchTokens keeps only eight). */
export const targetWords = (text: string) => [...new Set(fold(text).match(/[\p{L}\p{N}]+/gu) ?? [])]

/** Every key under which a search that this target may match is stored. */
export function targetKeys(t: AlertTarget, words: Iterable<string>): string[] {
  const keys = new Set<string>(['all'])
  if (t.categoryId) keys.add(`c${t.categoryId}`)
  for (const id of t.subcategoryIds) keys.add(`s${id}`)
  for (const id of t.skillIds) keys.add(`k${id}`)
  if (t.budgetType) keys.add(`t${t.budgetType}`)
  for (const w of words) if (w.length >= PREFIX) keys.add(`w${w.slice(0, PREFIX)}`)
  return [...keys]
}

/** A search's words; many searches share theirs, so one matching run folds each text once. */
function tokensOf(search: string | undefined, cache?: Map<string, string[]>): string[] {
  if (!search) return []
  const kept = cache?.get(search)
  if (kept) return kept
  const tokens = searchTokens(search)
  cache?.set(search, tokens)
  return tokens
}

/** Whether the target meets every filter of the search, as Find Project or Find Freelancers would. */
export function matches(
  f: SavedFilters,
  t: Omit<AlertTarget, 'text'>,
  words: readonly string[],
  cache?: Map<string, string[]>,
): boolean {
  if (f.categoryId && t.categoryId !== f.categoryId) return false
  if (f.subcategoryId && !t.subcategoryIds.includes(f.subcategoryId)) return false
  if (f.skills.length && !f.skills.some((id) => t.skillIds.includes(id))) return false
  if (f.budgetType && t.budgetType !== f.budgetType) return false
  if (f.remote !== undefined && t.remote !== f.remote) return false
  if (f.budgetMin !== undefined && (t.budgetMinor ?? 0) < f.budgetMin) return false
  if (f.budgetMax !== undefined && (t.budgetMinor ?? 0) > f.budgetMax) return false
  // Every word of the search is the beginning of a word of the target (the search index's prefixes).
  return tokensOf(f.search, cache).every((token) => words.some((w) => w.startsWith(token)))
}
