import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { projectStates } from '../machines.ts'
import { proposalOut } from '../schemas/proposal.ts'
import { shortlistLimits } from './limits.ts'

// A project's shortlist (issue 41 item 4, decision 336): its client marks the proposals they are
// considering, each with a private note, and compares them side by side. Only the project's client
// reads or writes it: anyone else, the proposals' authors included, is told 404. The freelancer is
// never told they are shortlisted.

export { shortlistLimits }
const problem = (key: string) => `shortlist:errors.${key}`
const tag = 'Shortlist'

/** Shortlisting a proposal, with the client's note (empty or absent: none). The API's body and the page's form. */
export const shortlistInput = z.object({
  note: z
    .string({ error: problem('note') })
    .trim()
    .max(shortlistLimits.note, problem('noteLong'))
    .optional()
    .transform((v) => (v ? v : null)),
})
export type ShortlistInput = z.output<typeof shortlistInput>

const entry = z.object({
  proposalId: z.number(),
  note: z.string().nullable(),
  shortlistedAt: z.string(),
})

export const shortlistContract = {
  compare: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/shortlist',
    summary:
      "The client's shortlist of one of their projects, oldest first: each proposal with the client's private note",
    tag,
    access: 'user',
    params: z.object({ projectId: recordId }),
    response: z.object({
      project: z.object({
        id: z.number(),
        title: z.string(),
        status: z.enum(projectStates),
        hourly: z.boolean(),
      }),
      data: z.array(entry.extend({ proposal: proposalOut })),
    }),
  }),
  put: endpoint({
    method: 'PUT',
    path: 'projects/proposals/{proposalId}/shortlist',
    summary:
      "Puts a proposal on its project's shortlist, or changes the note of one already there (the project's client only)",
    tag,
    access: 'user',
    params: z.object({ proposalId: recordId }),
    body: shortlistInput,
    response: entry,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'projects/proposals/{proposalId}/shortlist',
    summary: 'Takes a proposal off the shortlist with its note (one not on it changes nothing)',
    tag,
    access: 'user',
    params: z.object({ proposalId: recordId }),
    response: z.object({ ok: z.literal(true) }),
  }),
}
