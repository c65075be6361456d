import type { Dashboard } from '#server/modules/admin-money/contract.ts'
import { wordsFor } from '~/lib/words'
import { gridValues } from '~/components/ui/bar-chart'

// The overview's figures worded by the server (decisions 362 and 365): the browser's first
// Intl.DateTimeFormat (the weeks under the charts) and Intl.NumberFormat (the counts, the money)
// cost some 35 ms of the main thread while the page hydrates, four times that on a slow phone.

/** Each number the charts show: their values and their grid lines' values. */
const chartValues = (charts: number[][]) => charts.flatMap((values) => [...values, ...gridValues(values)])

/** The weeks, counts and money the overview shows, in `lng`. */
export function dashboardWords(figures: Dashboard, lng: string) {
  const words = wordsFor(lng)
  const { users, projects, contracts } = figures
  const counts = (items: Array<{ count: number }>) => items.map((i) => i.count)
  for (const week of figures.weekStarts) words.date(week, 'dayMonth')
  const countCharts = [
    counts(users.by),
    users.newPerWeek,
    counts(projects.by),
    counts(contracts.by),
    [...projects.newPerWeek, ...contracts.newPerWeek],
  ]
  for (const v of [users.total, projects.total, contracts.total, ...chartValues(countCharts)]) words.number(v)
  for (const m of figures.money)
    for (const v of [m.heldMinor, ...chartValues([[...m.heldPerWeek, ...m.releasedPerWeek]])])
      words.money(v, m.currency)
  return words.words
}
