// The deliverables register's pure rules (decision 318): revision schemes, issue statuses and the
// client's answers. A plain module without zod, so screens may import its lists.

/** stage: P01, P02… while preliminary, then C01, C02… for construction; letter: A, B, C… Z, AA, AB… */
export const revisionSchemes = ['stage', 'letter'] as const
export type RevisionScheme = (typeof revisionSchemes)[number]

export const issueStatuses = [
  'for_information',
  'for_comment',
  'for_approval',
  'for_construction',
  'as_built',
] as const
export type IssueStatus = (typeof issueStatuses)[number]

export const outcomes = ['approved', 'approved_with_comments', 'revise_and_resubmit'] as const
export type Outcome = (typeof outcomes)[number]

/** Answers that count as approval of the deliverable (its installment may then be released). */
export const approving: readonly Outcome[] = ['approved', 'approved_with_comments']
/** Answers that must say why. */
export const needsComment: readonly Outcome[] = ['approved_with_comments', 'revise_and_resubmit']

export const deliverableLimits = {
  number: 40,
  title: 200,
  discipline: 60,
  note: 4000,
  comment: 4000,
  revision: 8,
  files: 10,
  /** Deliverables one transmittal may issue at once. */
  perTransmittal: 100,
  perContract: 1000,
} as const

const two = (n: number) => String(n).padStart(2, '0')

/** A, B… Z, AA, AB…: the letters of the number n (1-based), as spreadsheet columns count. */
function letters(n: number) {
  let s = ''
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s
  return s
}

function letterIndex(revision: string) {
  let n = 0
  for (const ch of revision) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

/**
 * The revisions that may follow `last` (null: the deliverable was never issued). In the stage scheme
 * a preliminary issue may be followed by the next preliminary one or by the first construction one;
 * construction issues only count on. A revision once issued never comes back.
 */
export function nextRevisions(scheme: RevisionScheme, last: string | null): string[] {
  if (scheme === 'letter') return [letters(last ? letterIndex(last) + 1 : 1)]
  if (!last) return ['P01', 'C01']
  const n = Number(last.slice(1))
  return last.startsWith('P') ? [`P${two(n + 1)}`, 'C01'] : [`C${two(n + 1)}`]
}

/** A transmittal's number as documents print it: the contract's count, zero-padded (TR-0007). */
export const transmittalLabel = (number: number) => `TR-${String(number).padStart(4, '0')}`
