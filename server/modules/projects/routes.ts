import { implement } from '#server/api/handler.ts'
import { unauthorized } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { projectsContract as c } from './contract.ts'
import type { ProjectsService } from './service.ts'

const me = (caller: Caller | null) => {
  if (!caller) throw unauthorized()
  return caller
}

export function projectsRoutes(projects: ProjectsService) {
  return [
    implement(c.myProjects, ({ query, ctx }) => projects.myProjects(me(ctx.caller), query, ctx.locale)),
    implement(c.myProposals, ({ query, ctx }) => projects.myProposals(me(ctx.caller), query)),
    implement(c.myContracts, ({ query, ctx }) => projects.myContracts(me(ctx.caller), query)),
    implement(c.wishlist, ({ query, ctx }) => projects.wishlist(me(ctx.caller), query, ctx.locale)),
    implement(c.savedAmong, ({ query, ctx }) => projects.savedAmong(me(ctx.caller), query.projectIds)),
    implement(c.publicReviews, ({ params, query }) => projects.publicReviews(params.userId, query)),
    implement(c.homeSearch, ({ params, ctx }) => projects.homeSearch(params.type, params.term, !!ctx.caller)),
    implement(c.reviews, ({ query, ctx }) => projects.reviews(me(ctx.caller), query)),
    implement(c.writeReview, ({ params, body, ctx }) =>
      projects.writeReview(me(ctx.caller), params.contractId, body.rating, body.body),
    ),
    implement(c.createRoom, ({ params, ctx }) =>
      projects.createRoom(me(ctx.caller), params.projectId, params.userId),
    ),
    implement(c.accept, ({ params, ctx }) =>
      projects.accept(me(ctx.caller), params.proposalId, params.projectId),
    ),
    implement(c.reject, ({ params, body, ctx }) =>
      projects.reject(me(ctx.caller), params.proposalId, params.projectId, body.reason),
    ),
    implement(c.reviseProposal, ({ params, body, ctx }) =>
      projects.reviseProposal(me(ctx.caller), params.proposalId, body),
    ),
    implement(c.withdrawProposal, ({ params, ctx }) =>
      projects.withdrawProposal(me(ctx.caller), params.proposalId),
    ),
    implement(c.proposalRevisions, ({ params, ctx }) =>
      projects.proposalRevisions(me(ctx.caller), params.proposalId),
    ),
    implement(c.installmentAction, ({ params, body, ctx }) =>
      projects.installmentAction(me(ctx.caller), params.installmentId, params.action, body.note),
    ),
    implement(c.subscribe, ({ params, ctx }) => projects.subscribe(me(ctx.caller), params.projectId)),
    implement(c.unsubscribe, ({ params, ctx }) => projects.unsubscribe(me(ctx.caller), params.projectId)),
    implement(c.comments, ({ params, ctx }) => projects.comments(ctx.caller, params.projectId)),
    implement(c.addComment, ({ params, body, ctx }) =>
      projects.addComment(me(ctx.caller), params.projectId, body.body, body.parentId),
    ),
    implement(c.search, ({ query, ctx }) => projects.search(query, ctx.locale, !!ctx.caller)),
    implement(c.create, ({ body, ctx }) => projects.create(me(ctx.caller), body, ctx.locale)),
    implement(c.update, ({ params, body, ctx }) =>
      projects.update(me(ctx.caller), params.projectId, body, ctx.locale),
    ),
    implement(c.remove, ({ params, ctx }) => projects.remove(me(ctx.caller), params.projectId)),
    implement(c.attachments, ({ params, ctx }) => projects.attachments(me(ctx.caller), params.projectId)),
    implement(c.upload, ({ params, query, ctx }) =>
      projects.upload(me(ctx.caller), params.projectId, ctx.request, query),
    ),
    implement(c.removeAttachment, ({ params, ctx }) =>
      projects.removeAttachment(me(ctx.caller), params.projectId, params.fileId),
    ),
    implement(c.detailsForFreelancer, ({ params, ctx }) =>
      projects.detailsForFreelancer(me(ctx.caller), params.projectId, ctx.locale),
    ),
    implement(c.detailsForClient, ({ params, ctx }) =>
      projects.detailsForClient(me(ctx.caller), params.projectId, ctx.locale),
    ),
    implement(c.addWish, ({ params, ctx }) => projects.addWish(me(ctx.caller), params.projectId)),
    implement(c.removeWish, ({ params, ctx }) => projects.removeWish(me(ctx.caller), params.projectId)),
    implement(c.propose, ({ params, body, ctx }) => projects.propose(me(ctx.caller), params.projectId, body)),
    implement(c.clientProposals, ({ params, query, ctx }) =>
      projects.clientProposals(me(ctx.caller), params.projectId, query),
    ),
    implement(c.activities, ({ params, query, ctx }) =>
      projects.activities(me(ctx.caller), params.projectId, query),
    ),
    implement(c.updateState, ({ params, ctx }) =>
      projects.updateState(me(ctx.caller), params.projectId, params.state),
    ),
  ]
}
