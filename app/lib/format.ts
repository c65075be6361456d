// Dates, numbers and money in the page's language. Money is integer minor units with a currency
// (DESIGN: never floats); the currency's own number of decimals comes from Intl.

// Building an Intl formatter costs far more than formatting with one (it was a tenth of the home
// page's server time), so each language and set of options gets one, kept for the process. The
// keys come from the code's options and the five languages, so the map stays small.
const formatters = new Map<string, unknown>()
export function intlFormatter<T>(
  kind: string,
  locale: string,
  options: object | undefined,
  make: () => T,
): T {
  const key = `${kind}|${locale}|${JSON.stringify(options ?? {})}`
  let formatter = formatters.get(key) as T | undefined
  if (!formatter) {
    if (formatters.size > 500) formatters.clear() // a bound, in case a caller ever passes free-form options
    formatters.set(key, (formatter = make()))
  }
  return formatter
}
// What a page formats again and again (its dates, its amounts) is worded once per language and
// value: a formatter still costs a few microseconds per call, and a page formats dozens.
const worded = new Map<string, string>()
function wordedOnce(key: string, word: () => string) {
  let text = worded.get(key)
  if (text === undefined) {
    if (worded.size >= 5000) worded.clear()
    worded.set(key, (text = word()))
  }
  return text
}

const MEDIUM_DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }
const MEDIUM_DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }
export function formatDate(
  value: Date | string | number,
  locale: string,
  options: Intl.DateTimeFormatOptions = MEDIUM_DATE,
) {
  const word = () =>
    intlFormatter(
      'date',
      locale,
      options,
      () => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options }),
    ).format(new Date(value))
  // Only the two common wordings of a date given as text are remembered: other options are keyed by JSON, which costs as much as formatting.
  if (typeof value !== 'string' || (options !== MEDIUM_DATE && options !== MEDIUM_DATE_TIME)) return word()
  return wordedOnce(`${options === MEDIUM_DATE ? 'date' : 'datetime'}|${locale}|${value}`, word)
}

export function formatDateTime(value: Date | string | number, locale: string) {
  return formatDate(value, locale, MEDIUM_DATE_TIME)
}

export function formatNumber(value: number, locale: string, options?: Intl.NumberFormatOptions) {
  return intlFormatter('number', locale, options, () => new Intl.NumberFormat(locale, options)).format(value)
}

/** A file's size as people read it: whole kilobytes under a megabyte, else megabytes to one decimal ("240 kB", "1,2 MB"). */
export function formatFileSize(bytes: number, locale: string) {
  const mb = bytes / 1_000_000
  return mb < 1
    ? formatNumber(Math.max(1, Math.ceil(bytes / 1000)), locale, { style: 'unit', unit: 'kilobyte' })
    : formatNumber(mb, locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
}

// resolvedOptions() builds an object each call, and a list of 20 freelancers asks 20 times.
const digitsOf = new Map<string, number>()
export function currencyDigits(currency: string) {
  let digits = digitsOf.get(currency)
  if (digits === undefined)
    digitsOf.set(
      currency,
      (digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2),
    )
  return digits
}

/** A country's name in the reader's language from its ISO code ("GB" → "Vereinigtes Königreich"). */
export function formatCountry(code: string, locale: string) {
  try {
    const names = intlFormatter(
      'region',
      locale,
      undefined,
      () => new Intl.DisplayNames([locale], { type: 'region' }),
    )
    return names.of(code) ?? code
  } catch {
    return code
  }
}

export function formatMoney(minor: number, currency: string, locale: string) {
  return wordedOnce(`money|${locale}|${currency}|${minor}`, () => {
    const digits = currencyDigits(currency)
    return intlFormatter(
      'money',
      locale,
      { currency },
      () =>
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency,
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
        }),
    ).format(minor / 10 ** digits)
  })
}

/** A range of amounts ("€40.00–€60.00"); one amount when both ends are the same. */
export function formatMoneyRange(minMinor: number, maxMinor: number, currency: string, locale: string) {
  const max = formatMoney(maxMinor, currency, locale)
  return minMinor === maxMinor ? max : `${formatMoney(minMinor, currency, locale)}–${max}`
}

const SHORT_MONTH: Intl.DateTimeFormatOptions = { month: 'short', year: 'numeric' }
/** A month kept as "YYYY-MM" (a job's start, a certificate's issue) as people read it: "Mar 2015", "mar 2015". */
export function formatMonth(value: string, locale: string) {
  const [year, month] = value.split('-').map(Number)
  if (!year || !month) return value
  return formatDate(Date.UTC(year, month - 1, 1), locale, SHORT_MONTH)
}

/** A span of months ("Mar 2015 – Jun 2019"); an open end is the language's word for now ("Mar 2015 – present"). */
export function formatMonthRange(
  start: string,
  end: string | null | undefined,
  locale: string,
  present: string,
) {
  return `${formatMonth(start, locale)} – ${end ? formatMonth(end, locale) : present}`
}

/** The ISO date (YYYY-MM-DD) for a machine-readable <time dateTime>. */
export const isoDate = (value: Date | string | number) => new Date(value).toISOString().slice(0, 10)

/**
 * The parts of a line that are there, joined by the separator: a missing part leaves no separator
 * behind ("Belgrade, Serbia · No reviews yet", and "No reviews yet" alone, never "· No reviews yet").
 */
export function joinPresent(parts: ReadonlyArray<string | null | undefined | false>, separator = ' · ') {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join(separator)
}

/** A rating average as the page's language writes it, with one decimal ("4.5", "4,5"). */
export const formatRating = (average: number, locale: string) =>
  formatNumber(average, locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
