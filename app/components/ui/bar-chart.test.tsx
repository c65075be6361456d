import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../../tests/support/render'
import { BarChart } from '~/components/ui/bar-chart'
import { scaleTop } from './bar-chart'

// BarChart (decision 251): the bars are a drawing hidden from screen readers; every figure is in
// the folded table, each under its column's heading, so nothing is only a bar's height.
describe('BarChart', () => {
  const weeks = Array.from({ length: 12 }, (_, n) => `W${n + 1}`)
  const chart = (
    <BarChart
      caption="Money per week"
      categoryLabel="Week"
      figuresLabel="Show the figures"
      categories={weeks}
      series={[
        { name: 'Held', values: weeks.map((_, n) => n * 100) },
        { name: 'Released', values: weeks.map(() => 50) },
      ]}
      format={(v) => `€${v}`}
    />
  )

  it('draws one bar per category and series, hidden from screen readers, and names the figure', async () => {
    const html = await renderHtml(chart)
    expect(html.match(/<rect /g)).toHaveLength(24)
    expect(html).toMatch(/<svg[^>]*aria-hidden="true"/)
    expect(html).toContain('<figcaption class="ui-chart-caption">Money per week</figcaption>')
    // Twelve weeks, at most eight labels under the bars: every second one.
    expect(html.match(/class="ui-chart-tick"[^>]*text-anchor="middle"/g)).toHaveLength(6)
  })

  it('marks its scale in round figures: the largest value rounded up, never a figure like 834.30', async () => {
    expect([0, 1, 3, 7, 10, 11, 83_430, 120_000, 130_001, 450].map(scaleTop)).toEqual([
      1, 1, 3, 8, 10, 12, 100_000, 120_000, 150_000, 500,
    ])
    // Values up to 1,100: the grid reads 0, 600 and 1200, not 550 and 1100.
    const ticks = [...(await renderHtml(chart)).matchAll(/text-anchor="end">([^<]+)</g)].map((m) => m[1])
    expect(ticks).toEqual(['€0', '€600', '€1200'])
  })

  it('lists every figure in a table with the series as headings, under a summary that works without JavaScript', async () => {
    const html = await renderHtml(chart)
    expect(html).toMatch(/<details class="ui-chart-figures"><summary>Show the figures<\/summary>/)
    const table = html.slice(html.indexOf('<table'))
    expect(table.slice(table.indexOf('<tbody')).match(/<tr/g)).toHaveLength(12)
    expect(textOf(table.slice(0, table.indexOf('</thead>')))).toContain('Week Held Released')
    expect(textOf(table)).toContain('W12 €1100 €50')
  })

  it('draws nothing taller than the plot when all values are zero', async () => {
    const html = await renderHtml(
      <BarChart
        caption="Empty"
        categoryLabel="Week"
        figuresLabel="Figures"
        categories={['a', 'b']}
        series={[{ name: 'n', values: [0, 0] }]}
      />,
    )
    expect([...html.matchAll(/<rect [^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]))).toEqual([0, 0])
  })
})
