import type { Kysely, Transaction } from 'kysely'
import type { Database, Locale } from '#server/db/schema.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC, type EmailMessage } from '#server/jobs/mailer.ts'
import { Role } from '../identity/permissions.ts'
import { settingsHtml, settingsText, type MailSettings } from '../identity/mails.ts'
import { wantsMail } from '../notifications/preferences.ts'
import { mailSettings } from '../notifications/notice-mails.ts'
import { asLocale, renderNotification } from '../notifications/texts.ts'
import { partyKinds, type SubjectKind } from './rules.ts'

type Trx = Transaction<Database>

/** The outbox topic of a ticket's notification (outbox.ts stores it in the bell and tells the tabs). */
export const COMPLAINT_NOTIFY_TOPIC = 'complaints.notify'
export interface ComplaintNotifyPayload {
  userId: number
  complaintId: number
  kind: string
  params: Record<string, string | number>
}

/** A notification's text key: a kind of this module's (`reply`), or one naming its namespace (`disputes:notify.partyReplied`). */
export const notifyKey = (kind: string) => (kind.includes(':') ? kind : `complaints:notify.${kind}`)

/** The ticket's columns its author is told by. */
export interface TicketAuthor {
  id: number
  author_id: number | null
  email: string
  name: string
  language: string
  title: string
}

/** A bell notification of a ticket for one user (its texts in the disputes namespace when `kind` is one of this part's). */
export const tell = (
  trx: Trx,
  userId: number,
  complaintId: number,
  kind: string,
  params: Record<string, string | number>,
) =>
  enqueue(trx, COMPLAINT_NOTIFY_TOPIC, {
    userId,
    complaintId,
    kind,
    params: { id: complaintId, ...params },
  } satisfies ComplaintNotifyPayload)

/**
 * A dispute's steps reach both sides (decision 313): the other party of a ticket that holds or held
 * money hears of support's replies and moves too. On other tickets they only read them (decision 232).
 */
export async function tellParty(
  trx: Trx,
  ticket: { id: number; other_party_id: number | null; subject_kind: string; title: string },
  kind: string,
  params: Record<string, string | number> = {},
) {
  if (!ticket.other_party_id || !partyKinds.includes(ticket.subject_kind as SubjectKind)) return
  const dispute = await trx
    .selectFrom('refund_request')
    .select('id')
    .where('complaint_id', '=', ticket.id)
    .executeTakeFirst()
  if (dispute) await tell(trx, ticket.other_party_id, ticket.id, kind, { title: ticket.title, ...params })
}

/** Every SuperAdmin: told of an unassigned ticket's news. */
export const superAdmins = async (executor: Kysely<Database> | Trx) =>
  (
    await executor.selectFrom('user_role').select('user_id').where('role', '=', Role.SuperAdmin).execute()
  ).map((r) => r.user_id)

/**
 * Tells the ticket's author (in the bell when they have an account, and by mail always: a visitor
 * from /contact-us has only their address), in their language, in the change's transaction.
 * Decision 213: every state change support makes, and every reply of support's, is told.
 */
export async function tellAuthor(
  trx: Trx,
  publicUrl: string,
  ticket: TicketAuthor,
  kind: string,
  params: Record<string, string | number> = {},
  extra?: string,
) {
  // The receipt of a ticket its author has just filed is a mail only: the bell is for what others did.
  if (ticket.author_id && kind !== 'created')
    await enqueue(trx, COMPLAINT_NOTIFY_TOPIC, {
      userId: ticket.author_id,
      complaintId: ticket.id,
      kind,
      params: { id: ticket.id, title: ticket.title, ...params },
    } satisfies ComplaintNotifyPayload)
  await mailAuthor(trx, publicUrl, ticket, kind, params, extra)
}

/** The mail half of `tellAuthor`: for a step whose bell notification another part already gives (a dispute decided). */
export async function mailAuthor(
  trx: Trx,
  publicUrl: string,
  ticket: TicketAuthor,
  kind: string,
  params: Record<string, string | number> = {},
  extra?: string,
) {
  const all = { id: ticket.id, title: ticket.title, ...params }
  const account = ticket.author_id
    ? await trx
        .selectFrom('app_user')
        .select(['id', 'email', 'first_name', 'language'])
        .where('id', '=', ticket.author_id)
        .executeTakeFirst()
    : undefined
  const locale = asLocale(account?.language ?? ticket.language)
  // A person with an account may stop these mails, except the receipt of what they filed.
  const asked = account && kind !== 'created'
  if (asked && !(await wantsMail(trx, account.id, 'complaints'))) return
  const settings = asked ? await mailSettings(trx, publicUrl, account.id, 'complaints', locale) : undefined
  await enqueue(
    trx,
    EMAIL_TOPIC,
    ticketMail(
      locale,
      account?.email ?? ticket.email,
      account?.first_name ?? ticket.name,
      kind,
      all,
      account ? `${publicUrl}/ticketSupport/${ticket.id}` : null,
      extra,
      settings,
    ),
  )
}

/** The mail of a ticket's change, in the recipient's language: the notification's title and text, support's reply, and the ticket's link. */
function ticketMail(
  locale: Locale,
  to: string,
  name: string,
  kind: string,
  params: Record<string, string | number>,
  link: string | null,
  extra?: string,
  settings?: MailSettings,
): EmailMessage {
  const { title, content } = renderNotification(locale, notifyKey(kind), params)
  const greeting = renderNotification(locale, 'complaints:mail.greeting', { name }).title
  const footer = renderNotification(locale, 'complaints:mail.footer', {}).title
  const open = link ? renderNotification(locale, 'complaints:mail.open', {}).title : null
  const paragraphs = [content, ...(extra ? [extra] : [])]
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(link ? [`${open}: ${link}`, ''] : []),
    footer,
    ...settingsText(settings),
  ].join('\n')
  const esc = (s: string) =>
    s.replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    )
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:0 auto;padding:24px"><p>${esc(greeting)}</p>${paragraphs.map((p) => `<p style="white-space:pre-line">${esc(p)}</p>`).join('')}${link ? `<p><a href="${esc(link)}">${esc(open ?? link)}</a></p>` : ''}<hr style="border:none;border-top:1px solid #dde3ea"><p style="font-size:13px;color:#555">${esc(footer)}</p>${settingsHtml(settings)}</body></html>`
  const kindName = `complaint-${kind.replace(/^.*\./, '')}`
  const oneClick = settings?.oneClick ? { listUnsubscribe: settings.oneClick } : {}
  return { to, subject: title, text, html, language: locale, kind: kindName, ...oneClick }
}
