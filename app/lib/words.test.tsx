import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../tests/support/render'
import { supportedLanguages } from './i18n'
import {
  formatCountry,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMoney,
  formatMonth,
  formatNumber,
  formatRating,
} from './format'
import { Worded, useWords, wordsFor, type Words } from './words'
import { ProjectCard, wordProjectCards, type ProjectCardData } from '~/routes/projects/ui'

// Decision 365: a loader words its page's amounts, numbers, dates and countries into one map, and
// the page's components read them from it, so the browser builds no Intl formatter while the page
// hydrates; a value the map lacks is worded by the browser, the same way.

/** Shows each kind of value through the page's wording. */
function Figures() {
  const words = useWords()
  return (
    <p>
      {words.money(123456, 'EUR')} | {words.number(12345)} | {words.date('2026-08-05')} |{' '}
      {words.date('2026-08-05T14:30:00.000Z', 'dateTime')} | {words.date('2026-08-05', 'dayMonth')} |{' '}
      {words.country('RS')} | {words.moneyRange(4000, 6000, 'EUR')}
    </p>
  )
}
const word = (lng: string) => {
  const words = wordsFor(lng)
  words.money(123456, 'EUR')
  words.number(12345)
  words.date('2026-08-05')
  words.date('2026-08-05T14:30:00.000Z', 'dateTime')
  words.date('2026-08-05', 'dayMonth')
  words.country('RS')
  words.moneyRange(4000, 6000, 'EUR')
  return words.words
}
/** A text as `textOf` reads it (a no-break space is a space). */
const flat = (text: string) => text.replace(/\s+/g, ' ')
/** Texts no formatter would make: a page showing them took them from the map. */
const mark = (words: Words) => Object.fromEntries(Object.entries(words).map(([k, v]) => [k, `«${v}»`]))
const render = (lng: string, words?: Words) =>
  renderHtml(words ? <Worded words={words}>{<Figures />}</Worded> : <Figures />, lng)

describe('wordsFor: the loader’s words', () => {
  it.each([...supportedLanguages])('words each value as lib/format does, in %s', (lng) => {
    const words = wordsFor(lng)
    expect(words.money(123456, 'EUR')).toBe(formatMoney(123456, 'EUR', lng))
    expect(words.number(12345)).toBe(formatNumber(12345, lng))
    expect(words.date('2026-08-05')).toBe(formatDate('2026-08-05', lng))
    expect(words.date('2026-08-05T14:30:00Z', 'dateTime')).toBe(formatDateTime('2026-08-05T14:30:00Z', lng))
    expect(words.country('RS')).toBe(formatCountry('RS', lng))
    expect(Object.values(words.words)).toHaveLength(5)
  })

  // Decision 370: the kinds the other signed-in pages show (ratings, file sizes, a timesheet's days,
  // a profile's months, a blog post's day), worded as the pages worded them before.
  it.each([...supportedLanguages])(
    'words ratings, file sizes and the other date styles as lib/format does, in %s',
    (lng) => {
      const words = wordsFor(lng)
      expect(words.rating(4.56)).toBe(formatRating(4.56, lng))
      expect(words.fileSize(1_234_567)).toBe(formatFileSize(1_234_567, lng))
      expect(words.date('2026-08-05', 'weekday')).toBe(
        formatDate('2026-08-05', lng, { weekday: 'short', day: 'numeric', month: 'short' }),
      )
      expect(words.date('2015-03', 'month')).toBe(formatMonth('2015-03', lng))
      expect(words.date('2026-08-05', 'long')).toBe(formatDate('2026-08-05', lng, { dateStyle: 'long' }))
      // Each kind keeps its own entry, even where the values are the same number.
      words.number(4.56)
      expect(Object.values(words.words)).toHaveLength(6)
    },
  )

  it('keeps one text per value: the same instant as text or as a Date is one entry, each style its own', () => {
    const words = wordsFor('de')
    words.date('2026-08-05T00:00:00.000Z')
    words.date(new Date(Date.UTC(2026, 7, 5)))
    words.date('2026-08-05')
    words.date('2026-08-05', 'dayMonth')
    words.money(500, 'EUR')
    words.money(500, 'USD')
    words.number(500)
    expect(Object.values(words.words).map(flat).sort()).toEqual([
      '05.08.2026',
      '5,00 $',
      '5,00 €',
      '5. Aug.',
      '500',
    ])
  })
})

describe('useWords: the page’s wording', () => {
  it.each([...supportedLanguages])(
    'shows the same text in %s with the loader’s words as without',
    async (lng) => {
      const browser = textOf(await render(lng))
      expect(textOf(await render(lng, word(lng)))).toBe(browser)
      expect(browser).toContain(flat(formatMoney(4000, 'EUR', lng)))
    },
  )

  it('reads the loader’s text and formats nothing the loader worded', async () => {
    const text = textOf(await render('en', mark(word('en'))))
    expect(text).toBe(
      '«€1,234.56» | «12,345» | «Aug 5, 2026» | «Aug 5, 2026, 2:30 PM» | «Aug 5» | «Serbia» | «€40.00»–«€60.00»',
    )
  })

  it('words in the browser a value the loader did not word (one a live update brought)', async () => {
    const some = wordsFor('en')
    some.money(123456, 'EUR')
    some.date('2026-08-05', 'dayMonth')
    expect(textOf(await render('en', mark(some.words)))).toBe(
      '«€1,234.56» | 12,345 | Aug 5, 2026 | Aug 5, 2026, 2:30 PM | «Aug 5» | Serbia | €40.00–€60.00',
    )
  })

  it('words a project card as the card shows it (Find Project, My Projects)', async () => {
    const card: ProjectCardData = {
      id: 1,
      title: 'Canopy',
      excerpt: 'A canopy.',
      status: 'open',
      category: null,
      subcategory: null,
      skills: [],
      budgetType: 'hourly',
      budgetMinor: 6000,
      budgetMinMinor: 4000,
      currency: 'EUR',
      experienceLevel: null,
      deadline: '2026-09-01',
      remote: false,
      location: null,
      country: 'RS',
      proposalCount: 0,
      publishedAt: '2026-05-01T00:00:00Z',
      createdAt: '2026-04-01T00:00:00Z',
      client: { id: 2, name: 'Ana Ruiz' },
    }
    const words = wordsFor('it')
    wordProjectCards(words, [card])
    const marked = mark(words.words)
    const text = textOf(
      await renderHtml(<Worded words={marked}>{<ProjectCard p={card} href="/p/1" />}</Worded>, 'it'),
    )
    // Every amount, date and country on the card came from the map: none is left unmarked.
    expect(Object.keys(marked)).toHaveLength(5)
    for (const v of Object.values(marked)) expect(text).toContain(flat(v))
    expect(text.replace(/«[^»]*»/g, '')).not.toMatch(/€|2026|Serbia/)
  })
})
