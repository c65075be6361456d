// Dates, numbers and money in the page's language. Money is integer minor units with a currency
// (DESIGN: never floats); the currency's own number of decimals comes from Intl.
// Making an Intl formatter costs far more than using one (a list of 20 projects made 60 per
// render), so each locale and option set makes it once.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>()
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined
  if (!f) {
    f = make()
    if (formatters.size > 500) formatters.clear()
    formatters.set(key, f)
  }
  return f
}

export function formatDate(value: Date | string | number, locale: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) {
  return cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options })).format(new Date(value))
}

export function formatDateTime(value: Date | string | number, locale: string) {
  return formatDate(value, locale, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatNumber(value: number, locale: string, options?: Intl.NumberFormatOptions) {
  return cached(`n|${locale}|${JSON.stringify(options ?? {})}`, () => new Intl.NumberFormat(locale, options)).format(value)
}

const digitsOf = new Map<string, number>()
export function currencyDigits(currency: string) {
  let digits = digitsOf.get(currency)
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    if (digitsOf.size < 500) digitsOf.set(currency, digits)
  }
  return digits
}

export function formatMoney(minor: number, currency: string, locale: string) {
  const digits = currencyDigits(currency)
  return cached(`m|${locale}|${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits })).format(minor / 10 ** digits)
}

/** The ISO date (YYYY-MM-DD) for a machine-readable <time dateTime>. */
export const isoDate = (value: Date | string | number) => new Date(value).toISOString().slice(0, 10)
