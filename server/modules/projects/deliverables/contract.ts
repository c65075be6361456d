import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'
import { id, projectParams } from '../schemas/fields.ts'
import {
  answerInput,
  deliverableInput,
  deliverableOut,
  deliverableParams,
  issueInput,
  registerOut,
  registerQuery,
  transmittalInput,
  transmittalOut,
} from './schemas.ts'

// The deliverables register of a contract (issue 40 item 1, decision 318). The register is read
// by the project's id, as the contract pages are; its rows by their own ids.

const tag = 'Deliverables'

export const deliverablesContract = {
  register: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/deliverables',
    summary:
      "The contract's deliverables register, a page at a time in its order: each deliverable with every issue (newest first), its files, its transmittal and the client's answer. Its two parties only",
    tag,
    access: 'user',
    params: projectParams,
    query: registerQuery,
    response: registerOut,
  }),
  add: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/deliverables',
    summary:
      "The freelancer adds a deliverable under an installment not yet approved; the first one fixes the register's revision scheme (stage: P01…, C01…; letter: A, B…)",
    tag,
    access: 'user',
    params: projectParams,
    body: deliverableInput,
    response: deliverableOut,
  }),
  deliverable: endpoint({
    method: 'GET',
    path: 'projects/deliverables/{deliverableId}',
    summary: 'One deliverable of a contract with its revision history',
    tag,
    access: 'user',
    params: deliverableParams,
    response: deliverableOut,
  }),
  issue: endpoint({
    method: 'POST',
    path: 'projects/deliverables/{deliverableId}/issues',
    summary:
      'The freelancer issues the deliverable at its next revision (JSON, or multipart/form-data with up to 10 `files`); it produces a numbered transmittal, and submits a funded installment or one the client asked to change',
    tag,
    access: 'user',
    params: deliverableParams,
    body: issueInput,
    multipart: true,
    response: deliverableOut,
  }),
  issueTransmittal: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/transmittals',
    summary:
      'The freelancer issues several deliverables of one installment at once, each at its own next revision, under one transmittal that lists them all; it submits a funded installment or one the client asked to change. Nothing is written if one of them is refused',
    tag,
    access: 'user',
    params: projectParams,
    body: transmittalInput,
    response: transmittalOut,
  }),
  answer: endpoint({
    method: 'POST',
    path: 'projects/deliverable-issues/{issueId}/answer',
    summary:
      "The client answers the latest issue of a deliverable once: approved, approved with comments, or revise and resubmit (which asks for changes to its installment). An installment with deliverables is approved only once each one's latest issue is approved",
    tag,
    access: 'user',
    params: z.object({ issueId: id }),
    body: answerInput,
    response: deliverableOut,
  }),
  transmittal: endpoint({
    method: 'GET',
    path: 'projects/transmittals/{transmittalId}',
    summary: 'A transmittal: what was sent, when and to whom. Its two parties only',
    tag,
    access: 'user',
    params: z.object({ transmittalId: id }),
    response: transmittalOut,
  }),
}
