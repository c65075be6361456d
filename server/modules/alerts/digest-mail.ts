import type { Locale } from '#server/db/schema.ts'
import type { EmailMessage } from '#server/jobs/mailer.ts'
import { plainText } from '../notifications/texts.ts'

// The digest of one saved search in its owner's language (locales/<lng>/alerts.json `mail.*`):
// the new matches since the last digest, at most SHOWN of them by name, a link to the saved
// searches, and the link that stops this digest without signing in.

export const SHOWN = 10

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
const fill = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''))

export interface DigestInput {
  to: string
  locale: Locale
  kind: 'project' | 'freelancer'
  name: string
  items: Array<{ title: string; url: string }>
  /** All new matches, the shown ones included. */
  total: number
  listUrl: string
  unsubscribeUrl: string
}

export function digestMail(d: DigestInput): EmailMessage {
  const t = (key: string, params: Record<string, string | number> = {}) =>
    fill(plainText(d.locale, `alerts:mail.${key}`), params)
  // The plural form the language needs (Russian has few and many beside one and other).
  const plural = (key: string, count: number, params: Record<string, string | number> = {}) =>
    t(`${key}_${new Intl.PluralRules(d.locale).select(count)}`, { ...params, count })
  const noun = d.kind === 'project' ? 'Project' : 'Freelancer'
  const subject = t(`subject${noun}`, { name: d.name })
  const intro = plural(`intro${noun}`, d.total, { name: d.name })
  const rest = d.total - d.items.length
  const more = rest > 0 ? plural('more', rest) : ''
  const text = [
    intro,
    '',
    ...d.items.map((i) => `- ${i.title}: ${i.url}`),
    ...(more ? [more] : []),
    '',
    `${t('manage')}: ${d.listUrl}`,
    `${t('unsubscribe')}: ${d.unsubscribeUrl}`,
  ].join('\n')
  const html = [
    `<p>${escape(intro)}</p>`,
    `<ul>${d.items.map((i) => `<li><a href="${escape(i.url)}">${escape(i.title)}</a></li>`).join('')}</ul>`,
    more ? `<p>${escape(more)}</p>` : '',
    `<p><a href="${escape(d.listUrl)}">${escape(t('manage'))}</a></p>`,
    `<p style="font-size:12px;color:#555"><a href="${escape(d.unsubscribeUrl)}">${escape(t('unsubscribe'))}</a></p>`,
  ].join('')
  // The unsubscribe link answers a mail client's one-click POST too (RFC 8058, decision 340).
  return {
    to: d.to,
    subject,
    text,
    html,
    language: d.locale,
    kind: 'alert-digest',
    listUnsubscribe: d.unsubscribeUrl,
  }
}
