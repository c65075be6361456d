import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'
import { limits, projectVisibilities } from '../rules.ts'
import { projectStates } from '../machines.ts'
import { chosenId, oneOf, page, paged, person, writing } from '../schemas/fields.ts'

// Invitations (issue 41 item 2, decision 335): a client invites a freelancer to one of their open
// projects with a message; the freelancer accepts (and then proposes) or declines with a reason,
// once. One schema per input serves the API and the page's form.

export const invitationStates = ['pending', 'accepted', 'declined'] as const
export type InvitationState = (typeof invitationStates)[number]

/** The client's invitation: whom, and their words (the project is the path's). */
export const invitationInput = z.object({
  freelancerId: chosenId,
  message: writing(1, limits.invitationMessage),
})
export type InvitationInput = z.output<typeof invitationInput>

/** The invite form of a freelancer's profile: the project is one of the client's open projects, chosen there. */
export const invitationForm = invitationInput.extend({ projectId: chosenId })

/** Why the freelancer declines (the client reads it). */
export const declineInput = z.object({
  reason: writing(1, limits.declineReason),
})

export const invitationOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  projectStatus: z.enum(projectStates),
  visibility: z.enum(projectVisibilities),
  client: person,
  freelancer: person,
  message: z.string(),
  status: z.enum(invitationStates),
  declineReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
})
export type InvitationOut = z.output<typeof invitationOut>

const tag = 'Invitations'
const invitationId = recordId
const projectId = recordId

export const invitationsContract = {
  // Literal paths before the {projectId} ones of the projects' contract.
  mine: endpoint({
    method: 'GET',
    path: 'projects/invitations',
    summary: "The freelancer's invitations, newest first (filter by state)",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(invitationStates).optional(), ...page }),
    response: paged(invitationOut),
  }),
  accept: endpoint({
    method: 'POST',
    path: 'projects/invitations/{invitationId}/accept',
    summary:
      'The invited freelancer accepts (once, while the project is open); their proposal is then sent as any other',
    tag,
    access: 'user',
    params: z.object({ invitationId }),
    response: invitationOut,
  }),
  decline: endpoint({
    method: 'POST',
    path: 'projects/invitations/{invitationId}/decline',
    summary: 'The invited freelancer declines, once, with a reason the client reads',
    tag,
    access: 'user',
    params: z.object({ invitationId }),
    body: declineInput,
    response: invitationOut,
  }),
  forProject: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/invitations',
    summary: "A client's project's invitations and their states, newest first (its client only)",
    tag,
    access: 'user',
    params: z.object({ projectId }),
    response: z.object({ data: z.array(invitationOut) }),
  }),
  invite: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/invitations',
    summary:
      'The client invites a freelancer to their open project, once per freelancer (409 on a second invitation)',
    tag,
    access: 'user',
    params: z.object({ projectId }),
    body: invitationInput,
    response: invitationOut,
  }),
}
