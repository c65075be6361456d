import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { noticeFromOutbox, type NoticeDeliveryDeps } from '../notifications/outbox.ts'
import { NOTIFY_TOPIC } from './transition.ts'
import { REVIEW_TOPIC } from './reviews.ts'
import type { ProjectsService } from './service.ts'

// Delivery of the projects module's side effects, after commit, by the outbox worker.
// - projects.notify: stored as one notification per recipient (the bell's list), keyed by the
//   outbox row so a retried delivery stores nothing twice; then each recipient's every tab gets
//   the alert item (docs/product.md §3) in their language and countNotify with their unread count, and the
//   group `project:{id}` (its client and proposers, see notifications/groups.ts) gets
//   projectChanged. The texts are this module's (locales/*/projects.json `notify.<kind>`),
//   rendered when read.
// - projects.review-visible: the 14-day timer after which a lone review shows; ratings recomputed.
export interface NotifyPayload {
  userIds: number[]
  kind: string
  projectId: number
  type: 'Project' | 'Proposal' | 'ProjectStatus' | 'Invitation' | 'Offer'
  params: Record<string, string | number>
  /** The namespace of the texts when another module uses this delivery (refunds); projects by default. */
  ns?: string
  /** Who took the step, named in the text as `{{name}}`. */
  actorId?: number
}

export function projectsOutboxHandlers(
  deps: NoticeDeliveryDeps & { projects: Pick<ProjectsService, 'recomputeRating' | 'awardReviewPoints'> },
): Record<string, OutboxHandler> {
  const { db, projects, hubs } = deps
  return {
    [NOTIFY_TOPIC]: async (payload: NotifyPayload, row) => {
      if (!payload.userIds.length) return
      await noticeFromOutbox(deps, row.id, payload.userIds, {
        messageKey: `${payload.ns ?? 'projects'}:notify.${payload.kind}`,
        params: payload.params,
        type: payload.type,
        projectId: payload.projectId,
        senderId: payload.actorId ?? null,
      })
      await hubs?.notifications
        .toGroup(`project:${payload.projectId}`)
        .send('projectChanged', payload.projectId)
    },
    [REVIEW_TOPIC]: async (payload: { userIds: number[]; contractId?: number }) => {
      for (const id of payload.userIds) await projects.recomputeRating(db, id)
      if (payload.contractId) await projects.awardReviewPoints(db, payload.contractId)
    },
  }
}
