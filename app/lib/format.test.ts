import { describe, expect, it } from 'vitest'
import {
  formatCountry,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMonth,
  formatMonthRange,
  formatNumber,
  formatRating,
  joinPresent,
} from './format'
import { timeAgo, timeAgoParts } from './time-ago'

describe('time ago (docs/product.md §9)', () => {
  const now = new Date('2026-06-01T12:00:00Z')
  const ago = (ms: number) => timeAgoParts(now.getTime() - ms, now)
  it('counts seconds, minutes, hours, days, 30-day months and 12-month years', () => {
    expect(ago(0)).toEqual({ value: 0, unit: 'second' })
    expect(ago(59_000)).toEqual({ value: 59, unit: 'second' })
    expect(ago(60_000)).toEqual({ value: 1, unit: 'minute' })
    expect(ago(3_599_000)).toEqual({ value: 59, unit: 'minute' })
    expect(ago(3_600_000)).toEqual({ value: 1, unit: 'hour' })
    expect(ago(23 * 3_600_000)).toEqual({ value: 23, unit: 'hour' })
    expect(ago(86_400_000)).toEqual({ value: 1, unit: 'day' })
    expect(ago(29 * 86_400_000)).toEqual({ value: 29, unit: 'day' })
    expect(ago(30 * 86_400_000)).toEqual({ value: 1, unit: 'month' })
    expect(ago(359 * 86_400_000)).toEqual({ value: 11, unit: 'month' })
    expect(ago(360 * 86_400_000)).toEqual({ value: 1, unit: 'year' })
    expect(ago(800 * 86_400_000)).toEqual({ value: 2, unit: 'year' })
  })
  it('never shows the future and speaks the page language', () => {
    expect(timeAgoParts(now.getTime() + 5000, now)).toEqual({ value: 0, unit: 'second' })
    expect(timeAgo(now.getTime() - 5 * 60_000, 'en', now)).toBe('5 minutes ago')
    expect(timeAgo(now.getTime() - 2 * 86_400_000, 'de', now)).toBe('vor 2 Tagen')
    expect(timeAgo(now.getTime() - 3 * 3_600_000, 'ru', now)).toBe('3 часа назад')
  })
})

describe('formatting for the language', () => {
  it('formats dates, numbers and money per locale', () => {
    expect(formatDate('2026-03-05T10:00:00Z', 'en')).toBe('Mar 5, 2026')
    expect(formatDate('2026-03-05T10:00:00Z', 'de')).toBe('05.03.2026')
    expect(formatNumber(1234567.5, 'de')).toBe('1.234.567,5')
    expect(formatMoney(123456, 'EUR', 'de').replace(/\s/g, ' ')).toBe('1.234,56 €')
    expect(formatMoney(123456, 'USD', 'en')).toBe('$1,234.56')
    expect(formatMoney(5000, 'JPY', 'en')).toBe('¥5,000')
  })

  // Decision 285: a date or an amount is worded once per language and value, then remembered.
  it('words a remembered date or amount as the first time, apart per language, currency and value', () => {
    for (const language of ['en', 'es', 'de', 'it', 'ru']) {
      const intl = {
        date: new Intl.DateTimeFormat(language, { timeZone: 'UTC', dateStyle: 'medium' }).format(
          new Date('2026-03-05T10:00:00Z'),
        ),
        dateTime: new Intl.DateTimeFormat(language, {
          timeZone: 'UTC',
          dateStyle: 'medium',
          timeStyle: 'short',
        }).format(new Date('2026-03-05T10:00:00Z')),
        eur: new Intl.NumberFormat(language, {
          style: 'currency',
          currency: 'EUR',
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }).format(1234.56),
        usd: new Intl.NumberFormat(language, {
          style: 'currency',
          currency: 'USD',
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }).format(1234.57),
      }
      for (let time = 0; time < 2; time++) {
        expect(formatDate('2026-03-05T10:00:00Z', language)).toBe(intl.date)
        expect(formatDateTime('2026-03-05T10:00:00Z', language)).toBe(intl.dateTime)
        expect(formatMoney(123456, 'EUR', language)).toBe(intl.eur)
        expect(formatMoney(123457, 'USD', language)).toBe(intl.usd)
      }
    }
    expect(formatDate('2026-03-05T10:00:00Z', 'en', { dateStyle: 'long' })).toBe('March 5, 2026')
  })

  it("names a country in the reader's language, and leaves a code it cannot name as it is", () => {
    for (const language of ['en', 'de', 'ru', 'de'])
      expect(formatCountry('GB', language)).toBe(
        new Intl.DisplayNames([language], { type: 'region' }).of('GB'),
      )
    expect(formatCountry('GB', 'de')).toBe('Vereinigtes Königreich')
    expect(formatCountry('not a code', 'en')).toBe('not a code')
    expect(formatCountry('GB', 'not a language')).toBe('GB')
  })
})

describe('a line of parts', () => {
  // Issue 15: a profile without a city or country began "· No reviews yet".
  it('leaves no separator where a part is missing: at the start, at the end or twice between', () => {
    expect(joinPresent([null, 'No reviews yet'])).toBe('No reviews yet')
    expect(joinPresent(['', '★ 4.5 (2 reviews)'])).toBe('★ 4.5 (2 reviews)')
    expect(joinPresent(['Serbia', undefined, false, 'Expert', ' ', 'Part time'])).toBe(
      'Serbia · Expert · Part time',
    )
    expect(joinPresent(['Belgrade', null], ', ')).toBe('Belgrade')
    expect(joinPresent([joinPresent([null, null], ', '), 'Member since 1 Nov 2026'])).toBe(
      'Member since 1 Nov 2026',
    )
    expect(joinPresent([])).toBe('')
  })
  it("writes a rating as the page's language does", () => {
    expect([formatRating(5, 'en'), formatRating(4.25, 'de'), formatRating(4.96, 'ru')]).toEqual([
      '5.0',
      '4,3',
      '5,0',
    ])
  })
})

describe('months of a profile (issue 39, item 10)', () => {
  it('reads a YYYY-MM month as people read it in each language', () => {
    expect(formatMonth('2015-03', 'en')).toBe('Mar 2015')
    expect(formatMonth('2015-03', 'de')).toBe('März 2015')
    expect(formatMonth('2015-03', 'es')).toMatch(/^mar\.? 2015$/)
    expect(formatMonth('2015-12', 'it')).toBe('dic 2015')
    expect(formatMonth('2015-03', 'ru')).toMatch(/^март 2015/)
  })
  it('words an open span with the word for now, and leaves a text it cannot read as it is', () => {
    expect(formatMonthRange('2015-03', null, 'en', 'present')).toBe('Mar 2015 – present')
    expect(formatMonthRange('2015-03', '2019-06', 'en', 'present')).toBe('Mar 2015 – Jun 2019')
    expect(formatMonthRange('2010-09', undefined, 'de', 'heute')).toBe('Sept. 2010 – heute')
    expect(formatMonth('soon', 'en')).toBe('soon')
  })
})
