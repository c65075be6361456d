// Complaint limits and choices as plain values, with no zod: the pages' components read them in the
// browser (issue 38), and ./rules.ts builds its schemas from them.
export const complaintLimits = {
  title: 150,
  body: 5000,
  reason: 1000,
  attachments: 5,
  documentKb: 10_240,
  pageSize: 20,
} as const

/** What a complaint can be about; everything but the platform names one object the author is part of. */
export const subjectKinds = ['project', 'contract', 'installment', 'chat_room', 'user', 'platform'] as const
export type SubjectKind = (typeof subjectKinds)[number]

/** The admin's decision on a dispute (decision 231): who gets the held money. */
export const decisionOutcomes = ['release', 'refund', 'split'] as const
