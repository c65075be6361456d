// Dates, numbers and money in the page's language. Money is integer minor units with a currency
// (DESIGN: never floats); the currency's own number of decimals comes from Intl.
export function formatDate(value: Date | string | number, locale: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) {
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options }).format(new Date(value))
}

export function formatDateTime(value: Date | string | number, locale: string) {
  return formatDate(value, locale, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatNumber(value: number, locale: string, options?: Intl.NumberFormatOptions) {
  return new Intl.NumberFormat(locale, options).format(value)
}

export function currencyDigits(currency: string) {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

export function formatMoney(minor: number, currency: string, locale: string) {
  const digits = currencyDigits(currency)
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / 10 ** digits)
}

/** The ISO date (YYYY-MM-DD) for a machine-readable <time dateTime>. */
export const isoDate = (value: Date | string | number) => new Date(value).toISOString().slice(0, 10)
