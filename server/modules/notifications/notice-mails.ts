import { appSecret } from '#server/db/app-secrets.ts'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { enqueue, enqueueEach } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { renderMail, type MailKind } from '../identity/mails.ts'
import { asLocale, plainText, renderNotification } from './texts.ts'
import { notificationTarget } from './targets.ts'
import { noticeKindOf, ownMailNamespaces, switchedOff, type NoticeKind } from './preferences.ts'
import type { NotificationInput } from './notification.ts'
import { displayName } from '../identity/display-name.ts'

// A notice by email (issue 42 item 1, decision 329): the notice's own words in the reader's
// language, a link to what it is about, and two links to change it: one that stops this kind's
// mails without signing in (signed for this person and kind), and the settings page.

type Executor = Kysely<Database> | Transaction<Database>

export interface NoticeMailDeps {
  /** The site's address without a trailing slash, the base of the mailed links. */
  publicUrl: string
}

/** The key that signs the links that stop a kind's mails: made once, kept in the database, shared by every instance. */
const linkKey = async (executor: Executor) => Buffer.from(await appSecret(executor, 'notice-mail-links'))

const signature = (key: Buffer, userId: number, kind: string) =>
  createHmac('sha256', key).update(`notice mails off ${userId} ${kind}`).digest('base64url')

/** Whether a link's signature is this person's for this kind (a tampered link is not). */
export function signedFor(key: Buffer, userId: number, kind: string, token: string) {
  const expected = Buffer.from(signature(key, userId, kind))
  const given = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export const stopLink = (publicUrl: string, key: Buffer, userId: number, kind: NoticeKind) =>
  `${publicUrl}/emails/stop/${userId}/${kind}/${signature(key, userId, kind)}`

/**
 * Mails the notices whose readers want mails of their kind, once per reader and source (a retried
 * delivery finds its `notice_mail` row and mails nothing). Notices of a module with mails of its own
 * are left to it.
 */
export async function mailNotices(
  trx: Executor,
  deps: NoticeMailDeps,
  items: NotificationInput[],
  off: Set<string>,
) {
  const wanted = items.filter(
    (i) =>
      !ownMailNamespaces.has(i.messageKey.split(':')[0] ?? '') &&
      !off.has(`${i.userId}:${noticeKindOf(i.messageKey)}:email`),
  )
  if (!wanted.length) return
  const now = new Date().toISOString()
  const fresh = await trx
    .insertInto('notice_mail')
    .values(wanted.map((i) => ({ user_id: i.userId, source: i.source, created_at: now })))
    .onConflict((oc) => oc.columns(['user_id', 'source']).doNothing())
    .returning(['user_id', 'source'])
    .execute()
  if (!fresh.length) return
  const readers = await trx
    .selectFrom('app_user')
    .leftJoin('user_role', 'user_role.user_id', 'app_user.id')
    .select(['app_user.id', 'email', 'first_name', 'language', 'status', 'user_role.role'])
    .where(
      'app_user.id',
      'in',
      fresh.map((r) => r.user_id),
    )
    .execute()
  const key = await linkKey(trx)
  // The person whose step it is, named in the mail as the bell names them (`{{name}}`, inbox.ts).
  const senderIds = [...new Set(wanted.flatMap((i) => (i.senderId ? [i.senderId] : [])))]
  const senders = senderIds.length
    ? await trx
        .selectFrom('app_user')
        .select(['id', 'first_name', 'last_name', 'company_name', 'status'])
        .where('id', 'in', senderIds)
        .execute()
    : []
  for (const item of wanted) {
    const rows = readers.filter((r) => r.id === item.userId)
    const to = rows[0]
    const isFresh = fresh.some((r) => r.user_id === item.userId && r.source === item.source)
    if (!to || to.status === 'Deleted' || !isFresh) continue
    const roles = rows.flatMap((r) => (r.role == null ? [] : [r.role]))
    const locale = asLocale(to.language)
    const settings = await mailSettings(
      trx,
      deps.publicUrl,
      item.userId,
      noticeKindOf(item.messageKey),
      locale,
      key,
    )
    const sender = senders.find((u) => u.id === item.senderId)
    const named = sender ? { ...item, params: { ...item.params, name: displayName(sender, locale) } } : item
    await enqueue(trx, EMAIL_TOPIC, noticeMail(deps.publicUrl, named, to, roles, settings))
  }
}

/** Why a mail of this kind came and the links that change it: said under every notice mail. */
export async function mailSettings(
  executor: Executor,
  publicUrl: string,
  userId: number,
  kind: NoticeKind,
  locale: Locale,
  key?: Buffer,
) {
  const kindName = plainText(locale, `notifications:settings.kinds.${kind}.label`)
  const stop = stopLink(publicUrl, key ?? (await linkKey(executor)), userId, kind)
  return {
    why: plainText(locale, 'notifications:mail.why').replace('{{kind}}', kindName),
    links: [
      { label: plainText(locale, 'notifications:mail.stop'), href: stop },
      {
        label: plainText(locale, 'notifications:mail.settings'),
        href: `${publicUrl}/notifications/settings`,
      },
    ],
    // The same link answers a mail client's one-click POST (RFC 8058, decision 340).
    oneClick: stop,
  }
}

/** What a module's own mail says: its kind (for the reader's settings), its text and where it leads. */
type OwnNotice = { kind: NoticeKind; mail: MailKind; path: string; vars: Record<string, string> }

/**
 * A module's own mail about a step (change orders, deliverables, timesheets), in the step's
 * transaction: to each of `userIds` in their language, unless their account is deleted or they
 * stopped mails of this kind, with the links that change it. The readers, their settings and the
 * links' key are read once for all of them, and the mails written in one statement (decision 363).
 */
export async function mailOwnNotices(trx: Executor, publicUrl: string, userIds: number[], notice: OwnNotice) {
  await enqueueEach(trx, await ownNoticeMails(trx, publicUrl, userIds, notice))
}

/** `mailOwnNotices`'s outbox rows, for a step that writes them with its other rows in one insert (decision 367). */
export async function ownNoticeMails(trx: Executor, publicUrl: string, userIds: number[], notice: OwnNotice) {
  const people = await trx
    .selectFrom('app_user')
    .select(['id', 'email', 'first_name', 'language', 'status'])
    .where('id', 'in', userIds)
    .execute()
  const off = await switchedOff(trx, userIds)
  const readers = userIds.flatMap((id) =>
    people.filter((p) => p.id === id && p.status !== 'Deleted' && !off.has(`${id}:${notice.kind}:email`)),
  )
  if (!readers.length) return []
  const key = await linkKey(trx)
  const mails = []
  for (const to of readers) {
    const locale = asLocale(to.language)
    const payload = renderMail(notice.mail, {
      to: to.email,
      language: locale,
      name: to.first_name ?? '',
      link: new URL(notice.path, publicUrl).href,
      vars: notice.vars,
      settings: await mailSettings(trx, publicUrl, to.id, notice.kind, locale, key),
    })
    mails.push({ topic: EMAIL_TOPIC, payload })
  }
  return mails
}

/** `mailOwnNotices` to one person. */
export const mailOwnNotice = (trx: Executor, publicUrl: string, userId: number, notice: OwnNotice) =>
  mailOwnNotices(trx, publicUrl, [userId], notice)

/** Whether a stop link's signature is this person's for this kind. */
export const stopLinkIsValid = async (executor: Executor, userId: number, kind: string, token: string) =>
  signedFor(await linkKey(executor), userId, kind, token)

function noticeMail(
  publicUrl: string,
  item: NotificationInput,
  to: { email: string; first_name: string | null; language: string },
  roles: number[],
  settings: Awaited<ReturnType<typeof mailSettings>>,
) {
  const { title, content } = renderNotification(asLocale(to.language), item.messageKey, item.params ?? {})
  const target = notificationTarget(
    { roomId: item.roomId ?? null, projectId: item.projectId ?? null, type: item.type },
    roles,
  )
  return renderMail('notice', {
    to: to.email,
    language: to.language,
    name: to.first_name ?? '',
    link: `${publicUrl}${target === '/' ? '/notifications' : target}`,
    vars: { title, content },
    settings,
  })
}
