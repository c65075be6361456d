// What a verification request may be, as plain values the pages may import (no zod in the browser).
export const verificationKinds = ['identity', 'company'] as const
export type VerificationKind = (typeof verificationKinds)[number]
export const verificationStates = ['none', 'pending', 'verified', 'rejected'] as const
export type VerificationState = (typeof verificationStates)[number]
/** The document: a PDF, a JPEG or a PNG of at most this many KB. */
export const documentExtensions = ['pdf', 'jpg', 'jpeg', 'png'] as const
export const DOCUMENT_MAX_KB = 4096
export const REASON_MAX = 500
