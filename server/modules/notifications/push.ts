import { isIP } from 'node:net'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { badRequest, notFound } from '#server/api/errors.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { asLocale, renderNotification } from './texts.ts'
import { notificationTarget } from './targets.ts'
import { noticeKindOf, pushWanted } from './preferences.ts'
import type { NotificationInput } from './notification.ts'

export { deviceLabel } from './device-label.ts'

// Web Push (issue 42 item 6, decision 337): the browsers a person turned push on in, and the
// messages queued for them when a notice of a kind they want pushed is recorded. The outbox
// delivers them after commit (push-delivery.ts); nothing is sent in the request.

/** The outbox topic of one notice pushed to one person's devices. */
export const PUSH_TOPIC = 'notifications.push'

type Executor = Kysely<Database> | Transaction<Database>

/** What the service worker shows: the notice's words in the reader's language and the page it opens. */
export interface PushMessage {
  userId: number
  title: string
  body: string
  url: string
  tag: string
}

export interface PushSubscriptionInput {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

const loopback = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * The server posts to the endpoint a browser gave, so only a push service's address is taken: https
 * to a named host, never an address inside the network (tests may allow plain http on loopback).
 */
export function checkEndpoint(endpoint: string, loopbackHttp: boolean) {
  const url = new URL(endpoint)
  const host = url.hostname
  if (loopbackHttp && url.protocol === 'http:' && loopback.has(host)) return
  const named = !isIP(host.replace(/^\[|\]$/g, '')) && host.includes('.') && !loopback.has(host)
  if (url.protocol !== 'https:' || !named)
    throw badRequest('endpoint', "must be a push service's https address")
}

/**
 * Stores the caller's subscription. An endpoint is one browser profile's: when another person
 * turns push on in that browser it becomes theirs (keys replaced), so the one who used it before
 * stops getting pushes on a device they no longer use. Without the browser's private key nobody can
 * read what is sent to an endpoint, so taking one over reveals nothing.
 */
export async function subscribe(
  db: Kysely<Database>,
  { userId, sessionId }: { userId: number; sessionId: string },
  input: PushSubscriptionInput,
  label: string,
) {
  const row = {
    user_id: userId,
    session_id: sessionId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    label,
    created_at: new Date().toISOString(),
  }
  await db
    .insertInto('push_subscription')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('endpoint')
        .doUpdateSet({ user_id: userId, session_id: sessionId, p256dh: row.p256dh, auth: row.auth, label }),
    )
    .execute()
  return { endpoint: input.endpoint, label }
}

/** Removes one of the caller's subscriptions; another person's endpoint is not found. */
export async function unsubscribe(db: Kysely<Database>, userId: number, endpoint: string) {
  const done = await db
    .deleteFrom('push_subscription')
    .where('endpoint', '=', endpoint)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (Number(done.numDeletedRows) !== 1) throw notFound('Push subscription')
}

/**
 * Queues a push of each notice whose reader turned push on for its kind and has a device, once per
 * reader and source (a retried delivery finds its `notice_push` row and queues nothing).
 */
export async function queuePushes(trx: Executor, items: NotificationInput[]) {
  const wanted = await pushWanted(
    trx,
    items.map((i) => i.userId),
  )
  const chosen = items.filter((i) => wanted.has(`${i.userId}:${noticeKindOf(i.messageKey)}`))
  if (!chosen.length) return
  const readers = await trx
    .selectFrom('app_user')
    .leftJoin('user_role', 'user_role.user_id', 'app_user.id')
    .select(['app_user.id', 'language', 'status', 'user_role.role'])
    .where(
      'app_user.id',
      'in',
      chosen.map((i) => i.userId),
    )
    .where((eb) =>
      eb.exists(
        eb.selectFrom('push_subscription as p').select('p.id').whereRef('p.user_id', '=', 'app_user.id'),
      ),
    )
    .execute()
  for (const item of chosen) {
    const rows = readers.filter((r) => r.id === item.userId)
    if (!rows[0] || rows[0].status === 'Deleted' || !(await firstPush(trx, item))) continue
    const roles = rows.flatMap((r) => (r.role == null ? [] : [r.role]))
    await enqueue(trx, PUSH_TOPIC, pushMessage(item, asLocale(rows[0].language), roles))
  }
}

async function firstPush(trx: Executor, item: NotificationInput) {
  const fresh = await trx
    .insertInto('notice_push')
    .values({ user_id: item.userId, source: item.source, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'source']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  return !!fresh
}

function pushMessage(
  item: NotificationInput,
  locale: ReturnType<typeof asLocale>,
  roles: number[],
): PushMessage {
  const { title, content } = renderNotification(locale, item.messageKey, item.params ?? {})
  const target = notificationTarget(
    { roomId: item.roomId ?? null, projectId: item.projectId ?? null, type: item.type },
    roles,
  )
  return {
    userId: item.userId,
    title,
    body: content,
    url: target === '/' ? '/notifications' : target,
    tag: item.source,
  }
}
