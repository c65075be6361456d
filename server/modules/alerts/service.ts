import type { DB } from '#server/db/database.ts'
import type { Hubs } from '#server/hubs.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { periodicJob } from '#server/jobs/periodic.ts'
import type { Logger } from '#server/log.ts'
import { ACCOUNT_CREATED_TOPIC } from '../identity/registration.ts'
import { announce } from '../notifications/outbox.ts'
import { FREELANCER_CHANGED_TOPIC } from '../profiles/freelancer-editing.ts'
import { PUBLISHED_TOPIC as PROJECT_PUBLISHED_TOPIC } from '../projects/transition.ts'
import type { NotificationsService } from '../notifications/service.ts'
import { asLocale } from '../notifications/texts.ts'
import { createDigests } from './digest.ts'
import { followProfile, startProfileAlert } from './from-profile.ts'
import { ANNOUNCE_TOPIC, NOTICE_TOPIC, tellOwners, type NoticePart } from './notices.ts'
import { matchingSearches, queueAlerts } from './queue.ts'
import { createSavedSearches } from './saved-searches.ts'
import { freelancerTarget, projectTarget } from './targets.ts'
import { unsubscribe } from './unsubscribe.ts'

// Saved searches and job alerts (issue 41 item 1, decision 328), bound to the database. The
// modules that publish projects, create accounts and change profiles only write outbox events;
// what those events mean for alerts is decided here, after their commit.

export interface AlertsDeps {
  db: DB
  notifications: Pick<NotificationsService, 'record'>
  publicUrl: string
  secret: () => Promise<string>
}

export function createAlertsService({ db, notifications, publicUrl, secret }: AlertsDeps) {
  const record = (trx: DB, items: Parameters<NotificationsService['record']>[1]) =>
    notifications.record(trx, items)
  const sendDue = createDigests({ db, publicUrl, secret })
  return {
    searches: createSavedSearches({ db }),
    unsubscribe: async (token: string) => unsubscribe(db, await secret(), token),
    /** A project was published: the freelancers' matching searches get their alerts. */
    async projectPublished(projectId: number, now = Date.now()) {
      const found = await projectTarget(db, projectId)
      if (!found) return { matched: 0, notified: 0 }
      const { target, ownerId } = found
      const searches = await matchingSearches(db, 'project', target, ownerId)
      const notice = { messageKey: 'alerts:notify.project', params: { project: found.title }, projectId }
      return queueAlerts(db, { kind: 'project', targetId: projectId, ownerId, target }, searches, notice, now)
    },
    /** A freelancer's profile changed: their first alert follows it, and clients' searches they now meet are told. */
    async freelancerChanged(userId: number, now = Date.now()) {
      await followProfile(db, userId)
      const found = await freelancerTarget(db, userId)
      if (!found?.listed) return { matched: 0, notified: 0 }
      const searches = await matchingSearches(db, 'freelancer', found.target, userId)
      const notice = {
        messageKey: 'alerts:notify.freelancer',
        params: { freelancer: found.title },
        projectId: null,
      }
      const published = {
        kind: 'freelancer' as const,
        targetId: userId,
        ownerId: userId,
        target: found.target,
      }
      return queueAlerts(db, published, searches, notice, now)
    },
    /** One part of a target's in-app notices (notices.ts). */
    tellOwners: (part: NoticePart) => tellOwners(db, part, record),
    startProfileAlert: (userId: number) => startProfileAlert(db, userId),
    /** Sends the digests due now (the periodic job, and tests). */
    sendDigests: sendDue,
  }
}
export type AlertsService = ReturnType<typeof createAlertsService>

/** The digest job: every ALERT_DIGEST_SWEEP_MS, safe on several instances (digest.ts). */
export function createDigestJob(alerts: AlertsService, log: Logger, everyMs: number) {
  return periodicJob(
    () =>
      alerts.sendDigests().catch((error: unknown) => {
        log.error({ err: error }, 'alert digests failed')
      }),
    everyMs,
  )
}

export function alertsOutboxHandlers({
  db,
  alerts,
  notifications,
  hubs,
}: {
  db: DB
  alerts: AlertsService
  notifications: NotificationsService
  hubs: Hubs | null
}): Record<string, OutboxHandler> {
  return {
    [PROJECT_PUBLISHED_TOPIC]: async ({ projectId }: { projectId: number }) =>
      void (await alerts.projectPublished(projectId)),
    [NOTICE_TOPIC]: async (part: NoticePart) => void (await alerts.tellOwners(part)),
    [FREELANCER_CHANGED_TOPIC]: async ({ userId }: { userId: number }) =>
      void (await alerts.freelancerChanged(userId)),
    [ACCOUNT_CREATED_TOPIC]: async ({ userId, freelancer }: { userId: number; freelancer: boolean }) => {
      if (freelancer) await alerts.startProfileAlert(userId)
    },
    // The stored notices reach their owners' open tabs (best effort, as every live message).
    [ANNOUNCE_TOPIC]: async ({ told }: { told: Array<[number, string]> }) => {
      if (!hubs) return
      const users = await db
        .selectFrom('app_user')
        .select(['id', 'language'])
        .where(
          'id',
          'in',
          told.map(([id]) => id),
        )
        .execute()
      const locale = new Map(users.map((u) => [u.id, asLocale(u.language)]))
      for (const [id, source] of told)
        await announce(notifications, hubs, [{ id, locale: locale.get(id) ?? 'en' }], source)
    },
  }
}
