import type { TFunction } from '~/lib/translator'
import { currencyDigits } from '~/lib/format'
import type { Movement } from '#server/modules/payments/invoices-contract.ts'

// What the statement page and its CSV share: each movement said in words, with no zod, so the page's
// browser code carries no schema (issue 38); the URL's filter is read by ./statement-filter.server.ts.

/** A movement in words: what happened to the user's money, and on which project. */
export function describeMovement(m: Movement, t: TFunction) {
  const what = t(`invoices:movement.${m.movement}_${m.account}`, {
    defaultValue: t('invoices:movement.other', { kind: m.movement }),
  })
  return { what, where: [m.projectTitle, m.installmentTitle].filter(Boolean).join(' · ') }
}

/**
 * What the page's row adds under it: a release's price and fee, or a withdrawal's state (the CSV
 * has columns for them). `money` formats an amount for the reader.
 */
export function movementDetail(m: Movement, t: TFunction, money: (minor: number) => string) {
  const side = m.account === 'freelancer_available' ? 'freelancer' : 'client'
  if (m.priceMinor != null && m.feeMinor != null)
    return t(`invoices:price.${side}`, { price: money(m.priceMinor), fee: money(m.feeMinor) })
  return m.withdrawal ? t(`invoices:withdrawal.${m.withdrawal}`) : ''
}

/** One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; text a spreadsheet would run as a formula gets an apostrophe first (a plain number such as -12.50 stays one). */
export function csvCell(value: string | number) {
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text))
    text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** Minor units as a plain decimal with a point and the currency's digits (-1234.50), whatever the reader's language. */
export function decimal(minor: number, currency: string) {
  const digits = currencyDigits(currency)
  const sign = minor < 0 ? '-' : ''
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0')
  return digits ? `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}` : `${sign}${abs}`
}
