import type { Generated } from 'kysely'

// Verified identity (issue 42 item 4, migration 0049, decision 332).
export type IdentityVerificationTable = {
  id: Generated<number>
  user_id: number
  /** identity | company: what the document shows. */
  kind: string
  /** pending | verified | rejected */
  state: string
  /** The SuperAdmin's reason for the decision (a rejection's is shown to the person). */
  reason: string | null
  decided_by: number | null
  created_at: string
  decided_at: string | null
}
/** The document of a pending request, encrypted; deleted when the request is decided. */
export type VerificationDocumentTable = {
  verification_id: number
  original_name: string
  mime: string
  size: number
  /** The document's own key, encrypted with the platform's key: base64 of iv, tag and ciphertext. */
  wrapped_key: string
  iv: string
  tag: string
  ciphertext: Uint8Array
}

export interface VerificationTables {
  identity_verification: IdentityVerificationTable
  verification_document: VerificationDocumentTable
}
