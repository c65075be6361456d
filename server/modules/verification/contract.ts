import { z } from 'zod'
import { endpoint, pageNumber, recordId } from '#server/api/contract.ts'
import { DOCUMENT_MAX_KB } from './choices.ts'
import {
  verificationDecided,
  verificationDecision,
  verificationQueue,
  verificationRequestInput,
  verificationStatus,
} from './schemas.ts'

export * from './schemas.ts'

// Verified identity (issue 42 item 4, decision 332). A freelancer or a company asks with one
// document; only a SuperAdmin reads it, and it is deleted once the request is decided.
const tag = 'Verification'
const params = z.object({ id: recordId })

export const verificationContract = {
  status: endpoint({
    method: 'GET',
    path: 'verification',
    summary: "The caller's verification: none, pending, verified or rejected (with the reason)",
    tag,
    access: 'user',
    response: verificationStatus,
  }),
  request: endpoint({
    method: 'POST',
    path: 'verification',
    summary: `Asks to be verified (freelancers and companies): multipart/form-data with \`kind\` (identity or company) and one \`file\`, a PDF, JPEG or PNG of at most ${DOCUMENT_MAX_KB} KB, kept encrypted; 409 while a request is open or once verified`,
    tag,
    access: 'user',
    body: verificationRequestInput,
    multipart: true,
    response: verificationStatus,
  }),
  queue: endpoint({
    method: 'GET',
    path: 'Admin/verifications',
    summary: 'The pending verification requests, oldest first',
    tag,
    access: 'admin',
    query: z.object({ page: pageNumber }),
    response: verificationQueue,
  }),
  decide: endpoint({
    method: 'POST',
    path: 'Admin/verifications/{id}/decide',
    summary:
      'Approves or rejects a pending request (a rejection needs a reason); the document is deleted, the person told; a decided request answers 409',
    tag,
    access: 'admin',
    params,
    body: verificationDecision,
    response: verificationDecided,
  }),
  document: endpoint({
    method: 'GET',
    path: 'Admin/verifications/{id}/document',
    summary: "A pending request's document, decrypted, for SuperAdmins only; gone once decided (404)",
    tag,
    access: 'admin',
    params,
    response: z.any(),
    responseType: 'file',
  }),
}
