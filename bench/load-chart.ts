// The load run's chart: throughput, p99 latency and the server's memory over time, as one SVG
// (three panels sharing the time axis), readable without a browser's scripts.
interface Sample {
  at: number
  ms: number
  ok: boolean
}
interface MemorySample {
  at: number
  rssMb: number
  heapMb: number
  liveHeapMb?: number
}

const W = 900
const PANEL = 170
const LEFT = 70
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

function panel(
  index: number,
  title: string,
  unit: string,
  seconds: number,
  series: Array<{ name: string; colour: string; points: Array<[number, number]> }>,
) {
  const top = 40 + index * (PANEL + 40)
  const max = Math.max(1, ...series.flatMap((s) => s.points.map(([, y]) => y))) * 1.1
  const x = (t: number) => LEFT + (t / seconds) * (W - LEFT - 20)
  const y = (v: number) => top + PANEL - (v / max) * PANEL
  const lines = series.map(
    (s) =>
      `<polyline fill="none" stroke="${s.colour}" stroke-width="1.5" points="${s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"><title>${escape(s.name)}</title></polyline>`,
  )
  const ticks = [0, 0.5, 1].map(
    (f) =>
      `<text x="${LEFT - 6}" y="${y(max * f) + 4}" text-anchor="end" font-size="11">${(max * f).toFixed(max < 10 ? 1 : 0)}</text>`,
  )
  const legend = series.map(
    (s, i) =>
      `<text x="${LEFT + 10 + i * 160}" y="${top - 6}" font-size="12" fill="${s.colour}">■ ${escape(s.name)}</text>`,
  )
  return `<text x="10" y="${top - 6}" font-size="13" font-weight="bold">${escape(title)} (${unit})</text>${legend.join('')}<rect x="${LEFT}" y="${top}" width="${W - LEFT - 20}" height="${PANEL}" fill="none" stroke="#bbb"/>${ticks.join('')}${lines.join('')}`
}

export function loadChart({
  samples,
  memory,
  seconds,
  title,
}: {
  samples: Sample[]
  memory: MemorySample[]
  seconds: number
  title: string
}) {
  const bucket = 5
  const buckets = new Map<number, number[]>()
  for (const s of samples)
    buckets.set(Math.floor(s.at / 1000 / bucket), [
      ...(buckets.get(Math.floor(s.at / 1000 / bucket)) ?? []),
      s.ms,
    ])
  const rate: Array<[number, number]> = []
  const p99: Array<[number, number]> = []
  for (const [b, ms] of [...buckets].sort((a, c) => a[0] - c[0])) {
    rate.push([b * bucket + bucket / 2, ms.length / bucket])
    const sorted = ms.sort((a, c) => a - c)
    p99.push([b * bucket + bucket / 2, sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]])
  }
  const height = 40 + 3 * (PANEL + 40) + 10
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="sans-serif" role="img" aria-label="${escape(title)}"><title>${escape(title)}</title><rect width="100%" height="100%" fill="#fff"/>
${panel(0, 'throughput', 'requests/s', seconds, [{ name: 'requests/s', colour: '#1f6feb', points: rate }])}
${panel(1, 'latency', 'p99 ms per 5 s', seconds, [{ name: 'p99', colour: '#cf222e', points: p99 }])}
${panel(2, 'server memory', 'MB', seconds, [
  { name: 'RSS', colour: '#8250df', points: memory.map((m) => [m.at / 1000, m.rssMb]) },
  { name: 'heap used', colour: '#bf8700', points: memory.map((m) => [m.at / 1000, m.heapMb]) },
  {
    name: 'live heap (after GC)',
    colour: '#1a7f37',
    points: memory.filter((m) => m.liveHeapMb !== undefined).map((m) => [m.at / 1000, m.liveHeapMb!]),
  },
])}
<text x="${W / 2}" y="${height - 4}" text-anchor="middle" font-size="11">seconds since start (${seconds.toFixed(0)} s)</text></svg>`
}
