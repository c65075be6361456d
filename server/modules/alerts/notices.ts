import type { DB } from '#server/db/database.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import type { NotificationInput } from '../notifications/service.ts'

// The in-app notices of one publication, a part of its owners at a time (decision 343): each part
// is its own outbox row, so no delivery holds the event loop (or, on SQLite, the database) for
// long. A person is told once per target, naming one of their searches it matched; every matched
// search of theirs counts as told, so each still has at most one notice an hour.

export const NOTICE_TOPIC = 'alerts.notice'
export const ANNOUNCE_TOPIC = 'alerts.announce'
/** An in-app notice per saved search at most this often. */
export const NOTICE_EVERY_MS = 3_600_000
/** Owners per outbox row: one delivery blocks SQLite for about 25 ms (250 blocked it for 68; decision 343). */
export const OWNERS_PER_NOTICE = 100

export interface Notice {
  /** The message of the notification (alerts:notify.project or alerts:notify.freelancer). */
  messageKey: string
  params: Record<string, string | number>
  projectId: number | null
}

export interface NoticePart {
  kind: string
  targetId: number
  notice: Notice
  /** When the target was published: searches told in the hour before it are not told again. */
  at: string
  /** The matched searches not told within the hour when they were read: [owner, their search ids]. */
  owners: Array<[number, number[]]>
}

/** Stores the notices of one part; answers how many people were told. */
export async function tellOwners(
  db: DB,
  part: NoticePart,
  record: (trx: DB, items: NotificationInput[]) => Promise<unknown>,
) {
  const before = new Date(Date.parse(part.at) - NOTICE_EVERY_MS).toISOString()
  return db.transaction().execute(async (trx) => {
    // The conditional update decides who is told, so two deliveries cannot both tell a search.
    const due = await trx
      .updateTable('saved_search')
      .set({ notified_at: part.at })
      .where(
        'id',
        'in',
        part.owners.flatMap(([, ids]) => ids),
      )
      .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<=', before)]))
      .returning(['id', 'owner_id', 'name'])
      .execute()
    const named = new Map<number, string>()
    for (const d of due.sort((a, b) => a.id - b.id)) if (!named.has(d.owner_id)) named.set(d.owner_id, d.name)
    const items = [...named].map(([userId, search]) => ({
      userId,
      source: `alert:${part.kind}:${part.targetId}`,
      messageKey: part.notice.messageKey,
      params: { ...part.notice.params, search },
      type: 'SavedSearch' as const,
      projectId: part.notice.projectId,
    }))
    if (!items.length) return 0
    await record(trx, items)
    await enqueue(trx, ANNOUNCE_TOPIC, { told: items.map((i) => [i.userId, i.source]) })
    return items.length
  })
}
