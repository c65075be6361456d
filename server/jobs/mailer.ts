import type { Transporter } from 'nodemailer'
import type { Logger } from '../log.ts'
import type { OutboxHandler } from './outbox.ts'

// Delivery of the `email` outbox topic. With SMTP_URL set, nodemailer sends it over SMTP (a
// failure throws, so the outbox retries it). Without it the mail stays in the outbox as the record
// of what was sent and goes to the log, so one server works with no mail service.
export interface EmailMessage {
  to: string
  subject: string
  text: string
  html: string
  /** the recipient's language, kept for the record */
  language?: string
  /** what kind of mail it is (verify-email, reset-password, …), for the log */
  kind?: string
  /**
   * The one-click address that stops mails like this one (RFC 8058, decision 340): sent as
   * List-Unsubscribe with List-Unsubscribe-Post, so a mail client offers its own button. Bulk mails
   * only (notices of a kind that can be turned off, digests); security and account mails have none.
   */
  listUnsubscribe?: string
}

/** The headers of RFC 8058 one-click unsubscription for a mail that has an address for it. */
export const listUnsubscribeHeaders = (message: EmailMessage): Record<string, string> =>
  message.listUnsubscribe
    ? {
        'List-Unsubscribe': `<${message.listUnsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }
    : {}

export const EMAIL_TOPIC = 'email'

export function createMailHandler(options: { smtpUrl?: string; from: string; log: Logger }): {
  handler: OutboxHandler
  close(): void
} {
  // nodemailer is loaded with the first mail to send, so a server without SMTP never holds it (decision 136).
  const { smtpUrl } = options
  let transport: Promise<Transporter> | undefined
  const connect = (url: string) =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)))
  const handler: OutboxHandler = async (message: EmailMessage, row) => {
    if (!smtpUrl) {
      options.log.info(
        {
          outboxId: row.id,
          mail: {
            to: message.to,
            subject: message.subject,
            kind: message.kind,
            language: message.language,
            text: message.text,
          },
        },
        'email kept in the outbox (SMTP_URL is not set)',
      )
      return
    }
    await (
      await connect(smtpUrl)
    ).sendMail({
      from: options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: listUnsubscribeHeaders(message),
    })
    options.log.info({ outboxId: row.id, mail: { to: message.to, kind: message.kind } }, 'email sent')
  }
  return { handler, close: () => void transport?.then((t) => t.close()) }
}
