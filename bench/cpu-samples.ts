import path from 'node:path'

// V8's CPU samples in a Chromium trace (category disabled-by-default-v8.cpu_profiler), to say what a
// long main-thread task ran: the task events name only the outer call (React's scheduler slice), the
// samples name the functions under it. Meant for an unminified build (`react-router build --minify
// false`), where React's and our functions keep their names.
export const SAMPLES_CATEGORY = 'disabled-by-default-v8.cpu_profiler'

type CallFrame = { functionName?: string; url?: string; lineNumber?: number }
type ProfileNode = { id: number; parent?: number; callFrame: CallFrame }
export type ProfileEvent = {
  name: string
  id?: string
  ts: number
  pid: number
  tid: number
  args?: {
    data?: {
      startTime?: number
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }
      timeDeltas?: number[]
    }
  }
}

/** Each sample of one thread: its time (µs, the trace's clock) and its stack, innermost first. */
export function samplesOf(events: ProfileEvent[], pid: number, tid: number) {
  const ids = new Set(
    events.filter((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid).map((e) => e.id),
  )
  const nodes = new Map<string, { label: string; parent?: number }>()
  const raw: { ts: number; profile: string | undefined; node: number }[] = []
  // Each profile's sample times are deltas from its start, and its node ids are its own.
  const clock = new Map<string | undefined, number>()
  for (const e of events) {
    if (e.pid !== pid || !ids.has(e.id)) continue
    if (e.name === 'Profile') clock.set(e.id, e.args?.data?.startTime ?? e.ts)
    if (e.name !== 'ProfileChunk') continue
    const profile = e.args?.data?.cpuProfile
    for (const node of profile?.nodes ?? [])
      nodes.set(`${e.id}:${node.id}`, { label: labelOf(node.callFrame), parent: node.parent })
    const deltas = e.args?.data?.timeDeltas ?? []
    let ts = clock.get(e.id) ?? 0
    for (const [i, node] of (profile?.samples ?? []).entries())
      raw.push({ ts: (ts += deltas[i] ?? 0), profile: e.id, node })
    clock.set(e.id, ts)
  }
  const samples: { ts: number; stack: string[] }[] = []
  for (const { ts, profile, node } of raw) {
    const stack: string[] = []
    for (let n: number | undefined = node; n !== undefined;) {
      const found = nodes.get(`${profile}:${n}`)
      if (found) stack.push(found.label)
      n = found?.parent
    }
    samples.push({ ts, stack })
  }
  return samples
}

function labelOf({ functionName, url, lineNumber }: CallFrame) {
  const file = url ? path.basename(new URL(url, 'http://x').pathname) : ''
  const name = functionName || '(anonymous)'
  return file ? `${name} ${file}:${(lineNumber ?? 0) + 1}` : name
}

// React's phases, by the names an unminified React DOM keeps; components are named with a capital.
const phase = /^(renderRoot\w*|commitRoot\w*|flushPassiveEffects\w*|flushSpawnedWork|hydrateRoot)\s/
const component = /^[A-Z]\w*\s/

/** What the samples between `from` and `to` (µs) ran: heaviest own time, React's phases, components. */
export function describeSamples(samples: ReturnType<typeof samplesOf>, from: number, to: number) {
  const own = new Map<string, number>()
  const within = new Map<string, number>()
  const inside = samples.filter((s) => s.ts >= from && s.ts <= to)
  for (const { stack } of inside) {
    const first = stack.find((l) => !l.startsWith('(')) ?? stack[0] ?? '(idle)'
    own.set(first, (own.get(first) ?? 0) + 1)
    for (const label of new Set(stack)) within.set(label, (within.get(label) ?? 0) + 1)
  }
  const top = (entries: Iterable<[string, number]>, n: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([label, count]) => `${label} ${count}`)
  const labels = [...within]
  return {
    count: inside.length,
    own: top(own, 5),
    phases: top(
      labels.filter(([l]) => phase.test(l)),
      4,
    ),
    components: top(
      labels.filter(([l]) => component.test(l)),
      8,
    ),
  }
}
