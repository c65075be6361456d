// The review rule's kinds and limits, in a plain module the admin page may import (no zod in the
// browser, decision 316).
export const reviewRuleKinds = ['none', 'first', 'every', 'categories'] as const
export type ReviewRuleKind = (typeof reviewRuleKinds)[number]
export const REASON_MAX = 2000

export interface ReviewRule {
  kind: ReviewRuleKind
  categoryIds: number[]
  updatedAt: string | null
}
