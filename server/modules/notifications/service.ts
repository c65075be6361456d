import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { badRequest, conflict, forbidden } from '#server/api/errors.ts'
import { bySource, list, unread, unreadCount } from './inbox.ts'
import { asLocale } from './texts.ts'
import { markAllRead, markRead, markRoomRead, record } from './record.ts'
import type { NotificationInput } from './notification.ts'
import {
  preferencesOf,
  setPreferences,
  stopMails,
  type NoticeKind,
  type NoticePreference,
  type PreferenceKind,
} from './preferences.ts'
import { stopLinkIsValid, type NoticeMailDeps } from './notice-mails.ts'
import { checkEndpoint, deviceLabel, subscribe, unsubscribe, type PushSubscriptionInput } from './push.ts'
import { vapidKeys } from './push-delivery.ts'

export { COUNT_TOPIC } from './record.ts'
export type { NotificationInput } from './notification.ts'

type Executor = Kysely<Database> | Transaction<Database>

/** The newsletter subscription of an address (content/account-newsletter.ts): the settings' `newsletter` kind. */
export interface NewsletterPort {
  subscribed(email: string): Promise<boolean>
  subscribe(email: string, language: Locale): Promise<void>
  unsubscribe(email: string): Promise<void>
}
type SettingsEntry = Omit<NoticePreference, 'kind'> & { kind: PreferenceKind }

// The notifications module bound to its database: what its routes, the dashboard and the outbox
// handlers of other modules call.
export function createNotificationsService({
  db,
  mails,
  pushToLoopback = false,
  newsletter,
}: {
  db: Kysely<Database>
  /** Without it (tools, some tests) the settings have no newsletter kind. */
  newsletter?: NewsletterPort
  /** Without it (tools, some tests) notices are stored and never mailed. */
  mails?: NoticeMailDeps
  /** Tests only: push endpoints on loopback over plain http (a test's own push service). */
  pushToLoopback?: boolean
}) {
  return {
    list: (userId: number, hand: number, locale: Locale) => list(db, userId, hand, locale),
    unread: (userId: number, limit: number, locale: Locale) => unread(db, userId, limit, locale),
    count: async (userId: number) => ({ unreadCount: await unreadCount(db, userId) }),
    unreadCount: (userId: number) => unreadCount(db, userId),
    markRead: (userId: number, id: number, locale: Locale) => markRead(db, userId, id, locale),
    markAllRead: (userId: number) => markAllRead(db, userId),
    /** The hub-style aliases name a user: only the caller's own id is accepted. */
    ownId(callerId: number, userId: number) {
      if (callerId !== userId) throw forbidden()
      return userId
    },
    record: (executor: Executor, items: NotificationInput[]) => record(executor, items, mails),
    preferences: (userId: number) => settingsOf(db, userId, newsletter),
    /** The newsletter first: a refusal (an unverified address) leaves every setting as it was. */
    async setPreferences(userId: number, given: SettingsEntry[]) {
      const letter = given.find((p) => p.kind === 'newsletter')
      if (letter && newsletter) await setNewsletter(db, newsletter, userId, letter.email)
      const notices = given.filter((p): p is NoticePreference => p.kind !== 'newsletter')
      await setPreferences(db, userId, notices)
      return settingsOf(db, userId, newsletter)
    },
    /** The link in a notice mail: a tampered one is refused (400 on `token`) and changes nothing. */
    async stopMails(userId: number, kind: NoticeKind, token: string) {
      if (!(await stopLinkIsValid(db, userId, kind, token))) throw badRequest('token', 'is not a valid link')
      await stopMails(db, userId, kind)
    },
    pushKey: async () => (await vapidKeys(db)).publicKey,
    subscribe(
      caller: { userId: number; sessionId: string },
      input: PushSubscriptionInput & { label?: string },
      userAgent: string | null,
    ) {
      checkEndpoint(input.endpoint, pushToLoopback)
      return subscribe(db, caller, input, input.label ?? deviceLabel(userAgent))
    },
    unsubscribe: (userId: number, endpoint: string) => unsubscribe(db, userId, endpoint),
    markRoomRead,
    bySource: (userId: number, source: string, locale: Locale) => bySource(db, userId, source, locale),
  }
}

export type NotificationsService = ReturnType<typeof createNotificationsService>

const account = (db: Kysely<Database>, userId: number) =>
  db
    .selectFrom('app_user')
    .select(['email', 'email_verified', 'language'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()

/** The notices' settings and, after them, the newsletter's: whether the account's address is subscribed. */
async function settingsOf(db: Kysely<Database>, userId: number, newsletter?: NewsletterPort) {
  const notices: Array<Required<SettingsEntry>> = await preferencesOf(db, userId)
  if (!newsletter) return notices
  const email = await newsletter.subscribed((await account(db, userId)).email)
  return [...notices, { kind: 'newsletter' as const, site: false, email, push: false }]
}

async function setNewsletter(db: Kysely<Database>, newsletter: NewsletterPort, userId: number, on: boolean) {
  const me = await account(db, userId)
  if (on === (await newsletter.subscribed(me.email))) return
  if (!on) return newsletter.unsubscribe(me.email)
  // Double opt-in (decision 092) is the proof of an address; a verified account has given it.
  if (!me.email_verified) throw conflict('Confirm your email address before subscribing to the newsletter')
  await newsletter.subscribe(me.email, asLocale(me.language))
}
