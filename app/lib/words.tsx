import { createContext, use, useMemo, type ReactNode } from 'react'
import { useMatches } from 'react-router'
import { useTranslation } from './translations'
import {
  formatCountry,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMoney,
  formatNumber,
  formatRating,
} from './format'

// Amounts, numbers, dates and countries worded by the server (decisions 362 and 365). A page's first
// Intl formatter of a kind costs one task of 100–180 ms on a slow phone while it hydrates (Chromium
// loads the locale's data then), so a loader words each value its page shows into one map, value →
// text, and the page's components read it through `useWords`. A value missing from the map (one a
// live update brought after hydration) is worded in the browser, so the text is the same either way.

/** The page's words: each value's key (`keys` below) and its text in the page's language. */
export type Words = Readonly<Record<string, string>>

/**
 * How a date is worded: "5 Aug 2026", "5 Aug 2026, 14:30" (UTC), "5 Aug" (a chart's week), "Wed, 5 Aug"
 * (a timesheet's day), "Aug 2026" (a job's start on a profile) or "5 August 2026" (a blog post's day).
 */
export type DateStyle = 'date' | 'dateTime' | 'dayMonth' | 'weekday' | 'month' | 'long'
type When = Date | string | number

/** What a page words: the same calls on the server (recording each text) and in the browser (reading it). */
export interface Wording {
  money: (minor: number, currency: string) => string
  /** A range of amounts ("€40.00–€60.00"); one amount when both ends are the same. */
  moneyRange: (minMinor: number, maxMinor: number, currency: string) => string
  number: (value: number) => string
  /** A rating average with one decimal ("4.5", "4,5"). */
  rating: (average: number) => string
  /** A file's size ("240 kB", "1,2 MB"). */
  fileSize: (bytes: number) => string
  date: (value: When, style?: DateStyle) => string
  /** A country's name from its ISO code. */
  country: (code: string) => string
}

const styles: Record<Exclude<DateStyle, 'date' | 'dateTime'>, Intl.DateTimeFormatOptions> = {
  dayMonth: { day: 'numeric', month: 'short' },
  weekday: { weekday: 'short', day: 'numeric', month: 'short' },
  month: { month: 'short', year: 'numeric' },
  long: { dateStyle: 'long' },
}

// Keys of different kinds cannot meet: money has a space and letters, a number has neither, a
// rating starts with '*', a file's size with '#', a date with its style and a country with '@'.
const keys = {
  money: (minor: number, currency: string) => `${minor} ${currency}`,
  number: (value: number) => String(value),
  rating: (average: number) => `*${average}`,
  fileSize: (bytes: number) => `#${bytes}`,
  date: (value: When, style: DateStyle) => `${style} ${new Date(value).getTime()}`,
  country: (code: string) => `@${code}`,
}

/** Words each value through `word`, given its kind's key and the formatter for when `word` has none. */
function wordingWith(lng: string, word: (key: string, format: () => string) => string): Wording {
  const money = (minor: number, currency: string) =>
    word(keys.money(minor, currency), () => formatMoney(minor, currency, lng))
  return {
    money,
    moneyRange: (min, max, currency) =>
      min === max ? money(max, currency) : `${money(min, currency)}–${money(max, currency)}`,
    number: (value) => word(keys.number(value), () => formatNumber(value, lng)),
    rating: (average) => word(keys.rating(average), () => formatRating(average, lng)),
    fileSize: (bytes) => word(keys.fileSize(bytes), () => formatFileSize(bytes, lng)),
    date: (value, style = 'date') =>
      word(keys.date(value, style), () =>
        style === 'date'
          ? formatDate(value, lng)
          : style === 'dateTime'
            ? formatDateTime(value, lng)
            : formatDate(value, lng, styles[style]),
      ),
    country: (code) => word(keys.country(code), () => formatCountry(code, lng)),
  }
}

/**
 * For a loader: words values in `lng` and keeps each text in `words`, which the loader returns for
 * its page's `<Worded>`.
 */
export function wordsFor(lng: string): Wording & { words: Words } {
  const words: Record<string, string> = {}
  return { words, ...wordingWith(lng, (key, format) => (words[key] ??= format())) }
}

/** The server's text of a value, or the browser's wording of one it did not word. */
const lookUp = (words: Words, lng: string) =>
  wordingWith(lng, (key, format) => (Object.hasOwn(words, key) ? words[key]! : format()))

const WordsContext = createContext<Wording | null>(null)

/** Gives the page's components the words its loader made (`wordsFor(...).words`). */
export function Worded({ words, children }: { words: Words; children: ReactNode }) {
  const { i18n } = useTranslation()
  const wording = useMemo(() => lookUp(words, i18n.language), [words, i18n.language])
  return <WordsContext value={wording}>{children}</WordsContext>
}

/**
 * Gives every page the words its loaders made: the `words` of each matched route's loader data, so a
 * page only returns `words` from its loader (app/root.tsx renders this around the pages).
 */
export function PageWords({ children }: { children: ReactNode }) {
  const matches = useMatches()
  const words = useMemo(
    () =>
      Object.assign(
        {},
        ...matches.map((m) => (m.loaderData as { words?: Words } | undefined)?.words),
      ) as Words,
    [matches],
  )
  return <Worded words={words}>{children}</Worded>
}

const none: Words = {}
/** The page's wording: its loader's texts under a `<Worded>`, else the browser's own formatting. */
export function useWords(): Wording {
  const given = use(WordsContext)
  const { i18n } = useTranslation()
  return given ?? lookUp(none, i18n.language)
}
