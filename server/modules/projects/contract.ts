import { z } from 'zod'
import { endpoint } from '#server/api/contract.ts'
import { flag } from '#server/api/form-fields.ts'
import { clientStates, homeSearchTypes, installmentActions, limits } from './rules.ts'
import { contractStates, projectStates, proposalStates } from './machines.ts'
import { attachment, id, list, ok, oneOf, page, paged, person, projectParams } from './schemas/fields.ts'
import { projectDetails, projectInput, projectSummary, searchQuery } from './schemas/project.ts'
import { proposalInput, proposalOut, proposalRevision } from './schemas/proposal.ts'
import { activity, contractOut, noteInput, rejectInput } from './schemas/work.ts'
import { comment, commentInput, review, reviewInput } from './schemas/talk.ts'

export { projectInput, searchQuery, type ProjectInput, type SearchQuery } from './schemas/project.ts'
export { proposalInput, proposalInputFor, type ProposalInput } from './schemas/proposal.ts'
export { commentInput, reviewInput } from './schemas/talk.ts'

// Projects, proposals and contracts (docs/product.md §7 "Projects"). Parameter meanings the spec leaves open:
// - proposals/{proposalId}/accept/{projectId} and …/reject/{projectId}: both ids, so a form can
//   never act on a proposal of another project by mistake;
// - updatestate/{state}: the client's moves, open (publish a draft), cancelled, completed;
// - subscrib/{projectId}: follow (POST) or stop following (DELETE) a project's updates;
// - comment/{projectId}: list (GET) or add (POST) public questions and answers;
// - HomeSearch/{type}/{term}: the home search's suggestions, type projects or workneerer, term
//   'all' for none;
// - Createroom/{projectId}/{userId}: the chat room of the caller and the other party of the project
//   (its client and a freelancer with a contract or a proposal on it); the same room every time;
// - GetCommentsAndReviewes?userId=: the visible reviews about a user (default: the caller).

const tag = 'Projects'

export const projectsContract = {
  // Literal paths come before {projectId} ones.
  myProjects: endpoint({
    method: 'GET',
    path: 'projects/client',
    summary:
      "My Projects: the caller's projects, newest first; `invitable=true` leaves out direct offers' projects, to which nobody else is invited",
    tag,
    access: 'user',
    query: z.object({
      status: oneOf(projectStates).optional(),
      invitable: flag('must be true or false').optional(),
      ...page,
    }),
    response: paged(projectSummary),
  }),
  myProposals: endpoint({
    method: 'GET',
    path: 'projects/freelancer/proposals',
    summary: "My Proposals: the caller's proposals, newest first",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(proposalStates).optional(), ...page }),
    response: paged(proposalOut),
  }),
  myContracts: endpoint({
    method: 'GET',
    path: 'projects/freelancer/contracts',
    summary: "My Contracts: the caller's contracts (as freelancer or client), newest first",
    tag,
    access: 'user',
    query: z.object({ status: oneOf(contractStates).optional(), ...page }),
    response: paged(contractOut),
  }),
  wishlist: endpoint({
    method: 'GET',
    path: 'projects/wishlist',
    summary: 'Saved projects',
    tag,
    access: 'user',
    query: z.object(page),
    response: paged(projectSummary),
  }),
  savedAmong: endpoint({
    method: 'GET',
    path: 'projects/wishlist/ids',
    summary: 'Which of the given projects the caller has saved (for the Save buttons of a list)',
    tag,
    access: 'user',
    query: z.object({
      projectIds: z
        .union([id, z.array(id)])
        .optional()
        .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
        .pipe(z.array(z.number()).max(limits.pageSize, 'too many projects')),
    }),
    response: list(z.number()),
  }),
  publicReviews: endpoint({
    method: 'GET',
    path: 'projects/reviews/{userId}',
    summary: 'The visible reviews about a user and their average rating (public profiles)',
    tag,
    access: 'public',
    params: z.object({ userId: id }),
    query: z.object(page),
    response: paged(review).extend({ average: z.number(), count: z.number() }),
  }),
  homeSearch: endpoint({
    method: 'GET',
    path: 'projects/HomeSearch/{type}/{term}',
    summary: "The home search's suggestions: open projects or freelancers matching the term ('all' for none)",
    tag,
    access: 'public',
    params: z.object({ type: oneOf(homeSearchTypes), term: z.string().trim().max(limits.searchTerm) }),
    response: list(z.object({ id: z.number(), title: z.string(), subtitle: z.string(), url: z.string() })),
  }),
  reviews: endpoint({
    method: 'GET',
    path: 'projects/GetCommentsAndReviewes',
    summary: 'Visible reviews about a user (default: the caller), and the ones the caller wrote or may write',
    tag,
    access: 'user',
    query: z.object({ userId: id.optional(), ...page }),
    response: paged(review).extend({
      average: z.number(),
      count: z.number(),
      toWrite: z.array(
        z.object({
          contractId: z.number(),
          projectId: z.number(),
          projectTitle: z.string(),
          subject: person,
        }),
      ),
    }),
  }),
  writeReview: endpoint({
    method: 'POST',
    path: 'projects/contracts/{contractId}/review',
    summary: 'Review the other side of a completed contract (once)',
    tag,
    access: 'user',
    params: z.object({ contractId: id }),
    body: reviewInput,
    response: review,
  }),
  createRoom: endpoint({
    method: 'POST',
    path: 'projects/Createroom/{projectId}/{userId}',
    summary:
      'Opens (or finds) the chat room of the caller and the other party of a project: its client and a freelancer with a contract or a proposal on it',
    tag,
    access: 'user',
    params: z.object({ projectId: id, userId: id }),
    response: z.object({ roomId: z.number(), projectId: z.number(), participants: z.array(z.number()) }),
  }),
  accept: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/accept/{projectId}',
    summary:
      'Accept a proposal: creates the contract with the agreed installments (a repeat returns the same contract)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id, projectId: id }),
    response: contractOut,
  }),
  reject: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/reject/{projectId}',
    summary: 'Reject a pending proposal',
    tag,
    access: 'user',
    params: z.object({ proposalId: id, projectId: id }),
    body: rejectInput,
    response: proposalOut,
  }),
  reviseProposal: endpoint({
    method: 'PUT',
    path: 'projects/proposals/{proposalId}',
    summary: 'Edit a pending proposal (the previous version is kept)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    body: proposalInput,
    response: proposalOut,
  }),
  withdrawProposal: endpoint({
    method: 'POST',
    path: 'projects/proposals/{proposalId}/withdraw',
    summary: 'Withdraw a pending proposal',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    response: proposalOut,
  }),
  proposalRevisions: endpoint({
    method: 'GET',
    path: 'projects/proposals/{proposalId}/revisions',
    summary: 'Earlier versions of a proposal (its freelancer and the client)',
    tag,
    access: 'user',
    params: z.object({ proposalId: id }),
    response: list(proposalRevision),
  }),
  installmentAction: endpoint({
    method: 'POST',
    path: 'projects/installments/{installmentId}/{action}',
    summary:
      'Move an installment: submit (freelancer), request-changes or approve (client; approving releases the held money). Funding goes through Payment/PayProjectInstallments',
    tag,
    access: 'user',
    params: z.object({ installmentId: id, action: oneOf(installmentActions) }),
    body: noteInput,
    response: contractOut,
  }),
  subscribe: endpoint({
    method: 'POST',
    path: 'projects/subscrib/{projectId}',
    summary: "Follow a project's updates",
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  unsubscribe: endpoint({
    method: 'DELETE',
    path: 'projects/subscrib/{projectId}',
    summary: "Stop following a project's updates",
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  comments: endpoint({
    method: 'GET',
    path: 'projects/comment/{projectId}',
    summary: "A project's public questions and answers",
    tag,
    access: 'public',
    params: projectParams,
    response: list(comment),
  }),
  addComment: endpoint({
    method: 'POST',
    path: 'projects/comment/{projectId}',
    summary: 'Ask or answer on an open project',
    tag,
    access: 'user',
    params: projectParams,
    body: commentInput,
    response: comment,
  }),
  search: endpoint({
    method: 'GET',
    path: 'projects',
    summary: 'Find Project: open projects by full text, filters and sort, paged',
    tag,
    access: 'public',
    query: searchQuery,
    response: paged(projectSummary),
  }),
  create: endpoint({
    method: 'POST',
    path: 'projects',
    summary: 'Create a project (a draft unless publish is true)',
    tag,
    access: 'user',
    body: projectInput,
    response: projectDetails,
  }),
  update: endpoint({
    method: 'PUT',
    path: 'projects/{projectId}',
    summary: 'Edit a draft or open project without proposals',
    tag,
    access: 'user',
    params: projectParams,
    body: projectInput,
    response: projectDetails,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}',
    summary: 'Delete a project that has no contract (otherwise cancel it)',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  attachments: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/attachments',
    summary: "The project's files (its participants and, while open, freelancers)",
    tag,
    access: 'user',
    params: projectParams,
    response: list(attachment),
  }),
  upload: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/uploadProjectFiles',
    summary:
      'Attach a file (multipart field file) to the project, to a proposal (proposalId) or to submitted work (installmentId)',
    tag,
    access: 'user',
    params: projectParams,
    query: z.object({
      proposalId: id.optional(),
      installmentId: id.optional(),
      kind: oneOf(['image', 'document'] as const).optional(),
    }),
    response: attachment,
  }),
  removeAttachment: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}/attachments/{fileId}',
    summary: 'Remove a file the caller attached, while it may still change',
    tag,
    access: 'user',
    params: z.object({ projectId: id, fileId: id }),
    response: ok,
  }),
  detailsForFreelancer: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/details-for-freelancer',
    summary: 'What a freelancer may see: the project, their own proposal, their contract',
    tag,
    access: 'user',
    params: projectParams,
    response: z.object({
      project: projectDetails,
      proposal: proposalOut.nullable(),
      contract: contractOut.nullable(),
      canPropose: z.boolean(),
    }),
  }),
  detailsForClient: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/details-for-client',
    summary: "The client's view: the project, proposals received, contract and activity",
    tag,
    access: 'user',
    params: projectParams,
    response: z.object({
      project: projectDetails,
      proposals: z.array(proposalOut),
      contract: contractOut.nullable(),
      activity: z.array(activity),
    }),
  }),
  addWish: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/wishlist',
    summary: 'Save a project',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  removeWish: endpoint({
    method: 'DELETE',
    path: 'projects/{projectId}/wishlist',
    summary: 'Unsave a project',
    tag,
    access: 'user',
    params: projectParams,
    response: ok,
  }),
  propose: endpoint({
    method: 'POST',
    path: 'projects/{projectId}/proposal',
    summary: 'Send a proposal (one per freelancer and project)',
    tag,
    access: 'user',
    params: projectParams,
    body: proposalInput,
    response: proposalOut,
  }),
  clientProposals: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/client-proposals',
    summary: "Proposals received on one of the caller's projects",
    tag,
    access: 'user',
    params: projectParams,
    query: z.object({ status: oneOf(proposalStates).optional(), ...page }),
    response: paged(proposalOut),
  }),
  activities: endpoint({
    method: 'GET',
    path: 'projects/{projectId}/activities',
    summary: "The project's activity log (its participants)",
    tag,
    access: 'user',
    params: projectParams,
    query: z.object(page),
    response: paged(activity),
  }),
  updateState: endpoint({
    method: 'PUT',
    path: 'projects/{projectId}/updatestate/{state}',
    summary: "The client's moves: open (publish), cancelled, completed",
    tag,
    access: 'user',
    params: z.object({ projectId: id, state: oneOf(clientStates) }),
    response: z.object({ id: z.number(), status: z.enum(projectStates) }),
  }),
}
