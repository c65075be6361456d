import fs from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import { locales, type Locale } from '#server/db/schema.ts'
import type { EmailMessage } from '#server/jobs/mailer.ts'
import type { contactMessage } from './contract.ts'

// Mails of this module, in the recipient's language, from locales/<lng>/content.json (mail.*).
const localesDir = path.resolve(import.meta.dirname, '../../../locales')
const mailTexts = new Map<Locale, Record<string, string>>()

function mailText(locale: Locale) {
  let t = mailTexts.get(locale)
  if (!t) {
    const file = JSON.parse(fs.readFileSync(path.join(localesDir, locale, 'content.json'), 'utf8')) as {
      mail: Record<string, string>
    }
    mailTexts.set(locale, (t = file.mail))
  }
  return t
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export const asLocale = (l: string): Locale =>
  (locales as readonly string[]).includes(l) ? (l as Locale) : 'en'

// The newsletter's three mails: the link that starts a subscription, the welcome once it has
// started, and the reminder to an address that asks again while subscribed.
export function newsletterMail(
  kind: 'confirm' | 'welcome' | 'already',
  to: string,
  language: Locale,
  link: string,
): EmailMessage {
  const t = mailText(asLocale(language))
  const parts: Record<typeof kind, { subject: string; paragraphs: string[]; linkText: string }> = {
    confirm: {
      subject: t.confirmSubject,
      paragraphs: [t.confirmIntro, t.welcomeBody],
      linkText: t.confirmLink,
    },
    welcome: {
      subject: t.welcomeSubject,
      paragraphs: [t.welcomeIntro, t.welcomeBody],
      linkText: t.unsubscribe,
    },
    already: { subject: t.alreadySubject, paragraphs: [t.alreadyIntro], linkText: t.unsubscribe },
  }
  const { subject, paragraphs, linkText } = parts[kind]
  const footer = kind === 'confirm' ? t.confirmIgnore : ''
  const text = [
    ...paragraphs.flatMap((p) => [p, '']),
    `${linkText}: ${link}`,
    ...(footer ? ['', footer] : []),
  ].join('\n')
  const linkHtml =
    kind === 'confirm'
      ? `<p><a href="${escape(link)}" style="display:inline-block;padding:10px 18px;background:#1d5fa8;color:#fff;text-decoration:none;border-radius:6px">${escape(linkText)}</a></p>`
      : `<hr style="border:none;border-top:1px solid #dde3ea"><p style="font-size:13px;color:#555"><a href="${escape(link)}">${escape(linkText)}</a></p>`
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1b2430;max-width:560px;margin:0 auto;padding:24px">${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}${linkHtml}${footer ? `<p style="font-size:13px;color:#555">${escape(footer)}</p>` : ''}</body></html>`
  return { to, subject, text, html, language, kind: `newsletter-${kind}` }
}

/** A contact-form message as the support inbox receives it. */
export function supportMail(
  id: number,
  input: z.output<typeof contactMessage>,
  language: Locale,
  to: string,
): EmailMessage {
  const text = [
    `Contact message #${id} (${language})`,
    `From: ${input.name} <${input.email}>`,
    `Subject: ${input.subject}`,
    '',
    input.message,
  ].join('\n')
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><p>Contact message #${id} (${language})<br>From: ${escape(input.name)} &lt;${escape(input.email)}&gt;<br>Subject: ${escape(input.subject)}</p><p style="white-space:pre-line">${escape(input.message)}</p></body></html>`
  return { to, subject: `[Contact #${id}] ${input.subject}`, text, html, language: 'en', kind: 'contact-us' }
}
