import { appSecret } from '#server/db/app-secrets.ts'
import webpush from 'web-push'
import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { OutboxHandler } from '#server/jobs/outbox.ts'
import { PUSH_TOPIC, type PushMessage } from './push.ts'

// Sending a queued push (decision 337), by the outbox worker after commit: the message is
// encrypted for each of the person's browsers (RFC 8291, aes128gcm) and posted to its push service
// with a VAPID signature (RFC 8292). A push service that answers 404 or 410 has forgotten the
// subscription: it is deleted, as is one whose session has ended. Best effort, as every live message: a device that fails is skipped,
// and only when every device failed for a passing reason does the outbox try again later.

export interface PushDeps {
  /** Who the push services may contact about our messages: the site's https address or a mailto: address. */
  subject: string
}

/** The VAPID subject from the site's address, or from the support address when the site is not on https. */
export const vapidSubject = (publicUrl: string, supportEmail: string) =>
  publicUrl.startsWith('https:') ? publicUrl : `mailto:${supportEmail}`

const SECRET = 'web-push-vapid'

/** This installation's VAPID key pair: made once, kept in the database, shared by every instance. */
export async function vapidKeys(db: Kysely<Database>): Promise<{ publicKey: string; privateKey: string }> {
  return JSON.parse(await appSecret(db, SECRET, () => JSON.stringify(webpush.generateVAPIDKeys())))
}

type Outcome = 'sent' | 'gone' | 'failed'

async function send(
  subscription: { endpoint: string; p256dh: string; auth: string },
  message: PushMessage,
  vapidDetails: { subject: string; publicKey: string; privateKey: string },
): Promise<Outcome> {
  const { userId: _, ...shown } = message
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(shown),
    { vapidDetails, TTL: 24 * 3600, contentEncoding: 'aes128gcm' },
  )
  const headers = Object.fromEntries(
    Object.entries(details.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
  ) as Record<string, string>
  try {
    const answer = await fetch(details.endpoint, {
      method: details.method,
      headers,
      body: details.body as Buffer<ArrayBuffer>,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    })
    await answer.body?.cancel()
    if (answer.status === 404 || answer.status === 410) return 'gone'
    return answer.ok ? 'sent' : 'failed'
  } catch {
    return 'failed'
  }
}

/** Sends one queued message to every device of its person; forgets the subscriptions their push service forgot. */
export async function deliverPush(db: Kysely<Database>, deps: PushDeps, message: PushMessage) {
  const now = new Date().toISOString()
  const all = await db
    .selectFrom('push_subscription as p')
    .innerJoin('user_session as s', 's.id', 'p.session_id')
    .select(['p.id', 'p.endpoint', 'p.p256dh', 'p.auth', 's.revoked_at', 's.expires_at'])
    .where('p.user_id', '=', message.userId)
    .execute()
  // A device whose session has ended (signed out there, expired, revoked) is forgotten, not told.
  const ended = all.filter((d) => d.revoked_at != null || d.expires_at <= now).map((d) => d.id)
  if (ended.length) await db.deleteFrom('push_subscription').where('id', 'in', ended).execute()
  const devices = all.filter((d) => !ended.includes(d.id))
  if (!devices.length) return
  const keys = await vapidKeys(db)
  const vapid = { subject: deps.subject, ...keys }
  const outcomes = await Promise.all(devices.map((d) => send(d, message, vapid)))
  const gone = devices.filter((_, i) => outcomes[i] === 'gone').map((d) => d.id)
  if (gone.length) await db.deleteFrom('push_subscription').where('id', 'in', gone).execute()
  if (outcomes.every((o) => o === 'failed')) throw new Error('no push service took the message')
}

export const pushOutboxHandlers = (db: Kysely<Database>, deps: PushDeps): Record<string, OutboxHandler> => ({
  [PUSH_TOPIC]: (payload: PushMessage) => deliverPush(db, deps, payload),
})
