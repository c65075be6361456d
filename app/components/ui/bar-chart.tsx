import { DataTable } from './data-table'

export interface ChartSeries {
  name: string
  values: number[]
}

const W = 640
const H = 220
const PAD = { left: 64, right: 8, top: 12, bottom: 36 }
/** At most this many category labels under the bars; the rest are in the figures' table. */
const MAX_LABELS = 8

interface BarChartProps {
  caption: string
  categories: string[]
  categoryLabel: string
  series: ChartSeries[]
  format?: (value: number) => string
  figuresLabel: string
  testId?: string
}

/**
 * Bars over labelled categories (weeks, roles, states), one or two series side by side, drawn as
 * SVG on the server: no JavaScript. The drawing is hidden from screen readers; the figure's
 * caption names it and its figures are a table folded under `figuresLabel`, so every number can
 * be read (and checked) without seeing the bars. Values are whole numbers, 0 or more.
 */
export function BarChart({
  caption,
  categories,
  categoryLabel,
  series,
  format = String,
  figuresLabel,
  testId,
}: BarChartProps) {
  return (
    <figure className="ui-chart" data-testid={testId}>
      <figcaption className="ui-chart-caption">{caption}</figcaption>
      <Bars categories={categories} series={series} format={format} />
      {series.length > 1 ? (
        <ul className="ui-chart-legend">
          {series.map((s, k) => (
            <li key={k}>
              <span className={`ui-chart-swatch ui-chart-bar-${k}`} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="ui-chart-figures">
        <summary>{figuresLabel}</summary>
        <DataTable
          caption={caption}
          captionHidden
          columns={[{ label: categoryLabel }, ...series.map((s) => ({ label: s.name, numeric: true }))]}
          rows={categories.map((c, n) => ({
            key: n,
            cells: [c, ...series.map((s) => format(s.values[n] ?? 0))],
          }))}
        />
      </details>
    </figure>
  )
}

/** Tops of the scale per power of ten: each one and its half read as round figures. */
const ROUND_TOPS = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]

/**
 * The top of the scale: the largest value rounded up to a round figure, so the three grid lines
 * (0, half, top) read €1,000 and €500, not €834.30.
 */
export function scaleTop(largest: number) {
  if (largest <= 1) return 1
  const power = 10 ** Math.floor(Math.log10(largest))
  return Math.round(ROUND_TOPS.find((m) => m * power >= largest)! * power)
}

/** The values of the three grid lines (0, half, top) for a chart of these values. */
export function gridValues(values: number[]) {
  const max = scaleTop(Math.max(...values, 0))
  return [0, 0.5, 1].map((f) => Math.round(max * f))
}

/** The drawing: three grid lines with their values, then each category's bars and every few categories' label. */
function Bars({
  categories,
  series,
  format,
}: Pick<BarChartProps, 'categories' | 'series'> & { format: (value: number) => string }) {
  const grid = gridValues(series.flatMap((s) => s.values))
  const max = grid[2]!
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const group = plotW / Math.max(1, categories.length)
  const bar = (group * 0.7) / Math.max(1, series.length)
  const y = (v: number) => PAD.top + plotH - (Math.max(0, v) / max) * plotH
  const every = Math.ceil(categories.length / MAX_LABELS)
  return (
    <svg
      className="ui-chart-svg"
      viewBox={`0 0 ${W} ${H}`}
      aria-hidden="true"
      focusable="false"
      preserveAspectRatio="xMidYMid meet"
    >
      {grid.map((v, n) => (
        <g key={n}>
          <line className="ui-chart-grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
          <text className="ui-chart-tick" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
            {format(v)}
          </text>
        </g>
      ))}
      {categories.map((c, n) => (
        <g key={n}>
          {series.map((s, k) => (
            <rect
              key={k}
              className={`ui-chart-bar ui-chart-bar-${k}`}
              x={PAD.left + n * group + group * 0.15 + k * bar}
              y={y(s.values[n] ?? 0)}
              width={Math.max(1, bar - 1)}
              height={PAD.top + plotH - y(s.values[n] ?? 0)}
            />
          ))}
          {n % every === 0 ? (
            <text
              className="ui-chart-tick"
              x={PAD.left + n * group + group / 2}
              y={H - PAD.bottom + 16}
              textAnchor="middle"
            >
              {c}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  )
}
