import fs from 'node:fs'
import path from 'node:path'
import { locales, type Locale } from '#server/db/schema.ts'
import type { EmailMessage } from '#server/jobs/mailer.ts'

// Mails are written in the recipient's language from locales/<lng>/email.json, the same files the
// web UI's translations live in, so a missing key fails the translation test like any other.
export type MailKind =
  | 'verifyEmail'
  | 'resetPassword'
  | 'changeEmail'
  | 'accountExists'
  | 'passwordChanged'
  | 'chatUnread'
  | 'changeOrderProposed'
  | 'changeOrderAccepted'
  | 'changeOrderRejected'
  | 'timesheetSubmitted'
  | 'timesheetApproved'
  | 'timesheetAutoApproved'
  | 'timesheetDisputed'
  | 'notice'
  | 'deliverableIssued'
  | 'deliverablesIssued'
  | 'deliverableApproved'
  | 'deliverableApprovedWithComments'
  | 'deliverableToRevise'
  | 'accountClosing'
  | 'dataExportReady'
  | 'verificationApproved'
  | 'verificationRejected'
type Texts = Record<string, Record<string, string>>

const root = path.resolve(import.meta.dirname, '../../../locales')
const cache = new Map<Locale, Texts>()
function texts(locale: Locale): Texts {
  let t = cache.get(locale)
  if (!t)
    cache.set(
      locale,
      (t = JSON.parse(fs.readFileSync(path.join(root, locale, 'email.json'), 'utf8')) as Texts),
    )
  return t
}

const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => vars[k] ?? '')
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The API's own sentences (shown by the UI as "the server's message"), in the caller's language. */
export const apiMessage = (locale: Locale, key: string) => texts(locale).messages?.[key] ?? key

export function asLocale(value: string | null | undefined): Locale {
  return (locales as readonly string[]).includes(value ?? '') ? (value as Locale) : 'en'
}

/** Why a notice mail came and the links that change it (notifications/notice-mails.ts). */
export interface MailSettings {
  why: string
  links: Array<{ label: string; href: string }>
  /** The one-click address that stops this kind's mails (RFC 8058): the mail's List-Unsubscribe. */
  oneClick?: string
}

export const settingsText = (settings?: MailSettings) =>
  settings ? ['', settings.why, ...settings.links.map((l) => `${l.label}: ${l.href}`)] : []

export const settingsHtml = (settings?: MailSettings) =>
  settings
    ? `<p style="font-size:13px;color:#555">${escape(settings.why)}<br>${settings.links
        .map((l) => `<a href="${escape(l.href)}">${escape(l.label)}</a>`)
        .join(' · ')}</p>`
    : ''

/** Builds one mail: subject, a greeting, the paragraphs of its kind, an action link and a footer. */
export function renderMail(
  kind: MailKind,
  options: {
    to: string
    language: string
    name: string
    link?: string
    vars?: Record<string, string>
    /** Said after the footer: why this mail came and the links that change it (a notice's settings). */
    settings?: MailSettings
  },
): EmailMessage {
  const locale = asLocale(options.language)
  const t = texts(locale)
  const m = t[kind]
  const vars = { name: options.name, link: options.link ?? '', ...options.vars }
  const paragraphs = ['intro', 'expiry', 'ignore'].filter((k) => m[k]).map((k) => fill(m[k], vars))
  const greeting = fill(t.common.greeting, vars)
  const footer = fill(t.common.footer, vars)
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p, i) =>
      i === 0 && options.link ? [p, '', `${m.action}: ${options.link}`, ''] : [p, ''],
    ),
    footer,
    ...settingsText(options.settings),
  ].join('\n')
  const button = options.link
    ? `<p style="margin:24px 0"><a href="${escape(options.link)}" style="background:#0f4c81;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escape(m.action)}</a></p><p style="font-size:13px;color:#555">${escape(t.common.linkHint)}<br><a href="${escape(options.link)}">${escape(options.link)}</a></p>`
    : ''
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:0 auto;padding:24px"><p>${escape(greeting)}</p><p>${escape(paragraphs[0] ?? '')}</p>${button}${paragraphs
    .slice(1)
    .map((p) => `<p>${escape(p)}</p>`)
    .join(
      '',
    )}<hr style="border:none;border-top:1px solid #dde3ea"><p style="font-size:13px;color:#555">${escape(footer)}</p>${settingsHtml(options.settings)}</body></html>`
  const oneClick = options.settings?.oneClick
  return {
    to: options.to,
    subject: fill(m.subject, vars),
    text,
    html,
    language: locale,
    kind,
    ...(oneClick ? { listUnsubscribe: oneClick } : {}),
  }
}
