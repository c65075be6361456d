import { intlFormatter } from './format'
// docs/product.md §9: time-ago in seconds, minutes, hours, days, months (30 days) and years (12 months),
// worded by Intl.RelativeTimeFormat in the page's language ("5 minutes ago", "vor 5 Minuten").
export type TimeAgoUnit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MONTH = 30 * DAY
const YEAR = 12 * MONTH

/** The largest unit that fits, counted down (a 59-second gap is 59 seconds, 60 seconds is 1 minute). */
export function timeAgoParts(
  date: Date | string | number,
  now: Date | number = Date.now(),
): { value: number; unit: TimeAgoUnit } {
  const then = new Date(date).getTime()
  const diff = Math.max(0, new Date(now).getTime() - then)
  if (diff >= YEAR) return { value: Math.floor(diff / YEAR), unit: 'year' }
  if (diff >= MONTH) return { value: Math.floor(diff / MONTH), unit: 'month' }
  if (diff >= DAY) return { value: Math.floor(diff / DAY), unit: 'day' }
  if (diff >= HOUR) return { value: Math.floor(diff / HOUR), unit: 'hour' }
  if (diff >= MINUTE) return { value: Math.floor(diff / MINUTE), unit: 'minute' }
  return { value: Math.floor(diff / SECOND), unit: 'second' }
}

export function timeAgo(date: Date | string | number, locale: string, now: Date | number = Date.now()) {
  const { value, unit } = timeAgoParts(date, now)
  return intlFormatter(
    'relative',
    locale,
    undefined,
    () => new Intl.RelativeTimeFormat(locale, { numeric: 'always' }),
  ).format(-value, unit)
}
