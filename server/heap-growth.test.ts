import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

// Decision 287: with a small heap limit, the server's heap grows as far between full collections as
// it would without one, and the limit still holds.
const growth = path.join(import.meta.dirname, 'heap-growth.js')

/** A child with a 256 MB heap: a live set, then a churn of objects that outlive young collections. */
function run(applied: boolean) {
  const script = `
    import { PerformanceObserver, constants } from 'node:perf_hooks'
    import v8 from 'node:v8'
    if (${applied}) (await import(${JSON.stringify(growth)})).applyHeapGrowth()
    let full = 0
    const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++ })
    observer.observe({ entryTypes: ['gc'] })
    const live = []
    for (let i = 0; i < 300_000; i++) live.push({ i, s: 'x' + i })
    const ring = new Array(200_000)
    let peak = 0
    for (let k = 0; k < 20_000_000; k++) {
      ring[k % 200_000] = { k, a: [k, k] }
      if (k % 100_000 === 0) peak = Math.max(peak, v8.getHeapStatistics().used_heap_size)
    }
    setTimeout(() => {
      observer.disconnect()
      process.stdout.write(JSON.stringify({ full, peak, limit: v8.getHeapStatistics().heap_size_limit, live: live.length }))
    }, 50)`
  const child = spawnSync(
    process.execPath,
    ['--max-old-space-size=256', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  )
  expect(child.status, child.stderr).toBe(0)
  return JSON.parse(child.stdout) as { full: number; peak: number; limit: number }
}

describe('the heap growth the server starts with', () => {
  it('collects the whole of a small heap far less often, within the same limit', () => {
    const plain = run(false)
    const grown = run(true)
    // Seen here: 32 full collections without, 17 with.
    expect(plain.full).toBeGreaterThan(10)
    expect(grown.full).toBeLessThan(plain.full * 0.75)
    expect(grown.limit).toBe(plain.limit)
    expect(grown.peak).toBeLessThan(grown.limit)
  })
})
