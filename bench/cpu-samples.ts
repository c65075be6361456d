import path from 'node:path'

// V8's CPU samples in a Chromium trace (category disabled-by-default-v8.cpu_profiler), for
// bench/start-profile.ts: a task's CPU time says how long it ran, the samples say in which
// functions. Each sample is the stack at one moment; a function's own time is its count as the leaf.

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  parent?: number
  callFrame: CallFrame
}
interface ChunkData {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }
  timeDeltas?: number[]
  startTime?: number
}
export interface ProfileEvent {
  name: string
  ts: number
  pid: number
  tid: number
  id?: string
  args?: { data?: object }
}
/** One sample: when (trace µs), the time since the sample before (ms) and its frames, the running function first. */
export interface Sample {
  ts: number
  ms: number
  stack: CallFrame[]
}

/** The samples of one thread's profile (a trace may hold a profile per thread). */
export function samplesOf(events: ProfileEvent[], pid: number, tid: number): Sample[] {
  const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)
  if (!profile) return []
  const chunks = events.filter((e) => e.name === 'ProfileChunk' && e.pid === pid && e.id === profile.id)
  const nodes = new Map<number, ProfileNode>()
  const samples: Sample[] = []
  let at = (profile.args?.data as ChunkData | undefined)?.startTime ?? profile.ts
  for (const chunk of chunks) {
    const data = chunk.args?.data as ChunkData | undefined
    for (const node of data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node)
    const ids = data?.cpuProfile?.samples ?? []
    ids.forEach((id, n) => {
      const delta = data?.timeDeltas?.[n] ?? 0
      at += delta
      const stack: CallFrame[] = []
      for (let node = nodes.get(id); node; node = node.parent ? nodes.get(node.parent) : undefined)
        stack.push(node.callFrame)
      samples.push({ ts: at, ms: delta / 1000, stack })
    })
  }
  return samples
}

const frameName = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(new URL(f.url, 'http://x').pathname)}:${f.lineNumber + 1}` : ''}`.trim()
const idle = new Set(['(idle)', '(program)', '(root)'])

/**
 * What ran between two moments: the functions with the most own time, and the functions of our
 * code (not React's or React Router's framework chunk) nearest the top of the stack, in ms.
 */
export function whatRan(samples: Sample[], from: number, to: number, top = 4) {
  const inside = samples.filter(
    (s) => s.ts >= from && s.ts <= to && !idle.has(s.stack[0]?.functionName ?? ''),
  )
  const own = new Map<string, number>()
  const ours = new Map<string, number>()
  for (const s of inside) {
    const leaf = s.stack[0]
    if (leaf) own.set(frameName(leaf), (own.get(frameName(leaf)) ?? 0) + s.ms)
    const app = s.stack.find((f) => f.url && !/\/framework-[^/]*\.js$/.test(f.url))
    const key = app ? frameName(app) : '(framework only)'
    ours.set(key, (ours.get(key) ?? 0) + s.ms)
  }
  const best = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => `${k} ${ms.toFixed(1)} ms`)
  return { samples: inside.length, own: best(own), ours: best(ours) }
}
