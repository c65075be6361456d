import type { Dashboard } from '#server/modules/admin-money/contract.ts'
import { formatDate, formatMoney, formatNumber } from '~/lib/format'
import { gridValues } from '~/components/ui/bar-chart'

// The overview's figures worded by the server (decision 362): the browser's first
// Intl.DateTimeFormat (the weeks under the charts) and Intl.NumberFormat (the counts, the money)
// cost some 35 ms of the main thread while the page hydrates, four times that on a slow phone. The
// server has its formatters made; the page shows these words and formats only a value missing here.

const WEEK: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short' }

/** Each number a chart shows (its values and its grid lines' values), with the words for it. */
function wordsOf(charts: number[][], word: (value: number) => string, more: number[] = []) {
  const values = [...more, ...charts.flatMap((values) => [...values, ...gridValues(values)])]
  return Object.fromEntries(values.map((v) => [v, word(v)])) as Record<number, string>
}

export function dashboardWords(figures: Dashboard, lng: string) {
  const { users, projects, contracts } = figures
  const counts = (items: Array<{ count: number }>) => items.map((i) => i.count)
  return {
    weeks: figures.weekStarts.map((w) => formatDate(w, lng, WEEK)),
    counts: wordsOf(
      [
        counts(users.by),
        users.newPerWeek,
        counts(projects.by),
        counts(contracts.by),
        [...projects.newPerWeek, ...contracts.newPerWeek],
      ],
      (v) => formatNumber(v, lng),
      [users.total, projects.total, contracts.total],
    ),
    money: Object.fromEntries(
      figures.money.map((m) => [
        m.currency,
        wordsOf([[...m.heldPerWeek, ...m.releasedPerWeek]], (v) => formatMoney(v, m.currency, lng), [
          m.heldMinor,
        ]),
      ]),
    ) as Record<string, Record<number, string>>,
  }
}
