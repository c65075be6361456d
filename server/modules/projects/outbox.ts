import fs from 'node:fs'
import path from 'node:path'
import type { DB } from '../../db/database.ts'
import { locales, type Locale } from '../../db/schema.ts'
import type { OutboxHandler } from '../../jobs/outbox.ts'
import type { Hubs } from '../../hubs.ts'
import { NOTIFY_TOPIC } from './transition.ts'
import { REVIEW_TOPIC, type ProjectsService } from './service.ts'

// Delivery of the projects module's side effects, after commit, by the outbox worker.
// - projects.notify: an alert item (SPEC §3: id, title, content, isRead, type, projectId) sent on
//   the notifications hub to each recipient's every tab, in the recipient's language, followed by
//   countNotify so bells refresh. Storing notifications for the bell's list is the notifications
//   issue's: it registers its own handler for this topic (the payload is the contract).
// - projects.review-visible: the 14-day timer after which a lone review shows; ratings recomputed.
const root = path.resolve(import.meta.dirname, '../../../locales')
const cache = new Map<Locale, Record<string, { title: string; content: string }>>()
function texts(locale: Locale) {
  let t = cache.get(locale)
  if (!t) cache.set(locale, (t = JSON.parse(fs.readFileSync(path.join(root, locale, 'projects.json'), 'utf8')).notify))
  return t!
}
const fill = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''))

export interface NotifyPayload {
  userIds: number[]
  kind: string
  projectId: number
  type: 'Project' | 'Proposal' | 'ProjectStatus'
  params: Record<string, string | number>
}

export function projectsOutboxHandlers({ db, projects, hubs }: { db: DB; projects: ProjectsService; hubs: () => Hubs | null }): Record<string, OutboxHandler> {
  return {
    [NOTIFY_TOPIC]: async (payload: NotifyPayload, row) => {
      const target = hubs()
      if (!target || !payload.userIds.length) return
      const users = await db.selectFrom('app_user').select(['id', 'language']).where('id', 'in', payload.userIds).execute()
      for (const u of users) {
        const locale = ((locales as readonly string[]).includes(u.language) ? u.language : 'en') as Locale
        const text = texts(locale)[payload.kind] ?? texts('en')[payload.kind] ?? { title: payload.kind, content: '' }
        const alert = { id: row.id, title: fill(text.title, payload.params), content: fill(text.content, payload.params), isRead: false, type: payload.type, projectId: payload.projectId }
        await target.notifications.toUser(u.id).send('ReceiveNotification', alert)
        await target.notifications.toUser(u.id).send('countNotify')
      }
    },
    [REVIEW_TOPIC]: async (payload: { userIds: number[]; contractId?: number }) => {
      for (const id of payload.userIds) await projects.recomputeRating(db, id)
      if (payload.contractId) await projects.awardReviewPoints(db, payload.contractId)
    },
  }
}
