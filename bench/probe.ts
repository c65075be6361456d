import fs from 'node:fs'
import v8 from 'node:v8'

// Loaded into the server under test with `node --import ./bench/probe.ts` (the bench only, never
// production): answers the bench's questions about the server's memory over the IPC channel, so
// the figures are the server's own, not the bench's.
// - 'memory': process.memoryUsage() and the V8 heap's size and limit, after an optional full GC
//   (`settle: true` needs --expose-gc) so "after start" is the live set, not garbage not yet swept;
// - 'allocation-start' / 'allocation-stop': the bytes the V8 heap allocated in between. V8 keeps no
//   running total, so it is what the heap grew by plus what every GC in between freed (GCProfiler
//   reports the heap before and after each collection).
export interface MemoryAnswer {
  rss: number
  /** The largest resident set since the process started. */
  peakRss: number
  heapUsed: number
  heapTotal: number
  external: number
  arrayBuffers: number
  heapLimit: number
  /** The server's CPU time since it started (user + system), ms. */
  cpuMs: number
  /** V8's heap by space (new, old, code, large objects…): what each has reserved and what it uses. */
  spaces: { name: string; size: number; used: number }[]
  /** What V8 itself holds through malloc (its own tables, not JavaScript objects). */
  v8Malloced: number
  /** The resident set by kind of mapping (/proc/self/smaps): see residentParts. */
  resident: ResidentParts
  threads: number
  /** Handles and requests keeping the loop alive, by kind (TCPSocketWrap, Timeout, ZLIB…). */
  resources: Record<string, number>
}
export interface ResidentParts {
  /** Anonymous memory: V8's heap, glibc's arenas, thread stacks. */
  anon: number
  /** Pages read from files: the node executable and the shared libraries. */
  file: number
  /** glibc's main arena (`[heap]`): what the main thread's malloc holds, used or kept. */
  mainArena: number
  /** Anonymous mappings of 64 MiB glibc reserves for each other thread's arena (resident part). */
  threadArenas: number
}
export interface AllocationAnswer {
  allocated: number
  /** The server's CPU time in between (user + system), ms: what the work cost whatever else the machine ran. */
  cpuMs: number
  collections: number
  /** Collections of the whole heap (mark-compact), beside the young generation's scavenges. */
  fullCollections: number
  gcMs: number
}
export type ProbeQuestion =
  | { id: number; ask: 'memory'; settle?: boolean }
  | { id: number; ask: 'allocation-start' }
  | { id: number; ask: 'allocation-stop' }

let profiler: v8.GCProfiler | null = null
let usedAtStart = 0
let cpuAtStart = process.cpuUsage()

const cpuMs = (cpu: NodeJS.CpuUsage) => (cpu.user + cpu.system) / 1000

// A glibc thread arena is a 64 MiB-aligned reservation, its used part read-write and the rest
// inaccessible; V8's pages are smaller mappings (256 KiB pages, its code range) that never pair so.
const ARENA = 64 * 1024 * 1024
function residentParts(): ResidentParts {
  const parts: ResidentParts = { anon: 0, file: 0, mainArena: 0, threadArenas: 0 }
  let current: { start: number; end: number; file: boolean; heap: boolean } | null = null
  let previous: { start: number; rss: number } | null = null
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line)
    if (head) {
      const start = parseInt(head[1], 16)
      const end = parseInt(head[2], 16)
      // The inaccessible rest of an arena follows its used part and ends on a 64 MiB boundary.
      if (head[3] === '---p' && previous && end % ARENA === 0 && end - previous.start === ARENA)
        parts.threadArenas += previous.rss
      previous = null
      current = { start, end, file: head[4] !== '0', heap: head[5] === '[heap]' }
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (!rss || !current) continue
    const bytes = Number(rss[1]) * 1024
    if (current.file) parts.file += bytes
    else parts.anon += bytes
    if (current.heap) parts.mainArena += bytes
    if (!current.file && current.start % ARENA === 0) previous = { start: current.start, rss: bytes }
  }
  return parts
}

function memory(settle: boolean): MemoryAnswer {
  if (settle && typeof globalThis.gc === 'function') globalThis.gc()
  const m = process.memoryUsage()
  return {
    rss: m.rss,
    peakRss: process.resourceUsage().maxRSS * 1024,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    heapLimit: v8.getHeapStatistics().heap_size_limit,
    cpuMs: cpuMs(process.cpuUsage()),
    spaces: v8
      .getHeapSpaceStatistics()
      .map((s) => ({ name: s.space_name, size: s.space_size, used: s.space_used_size })),
    v8Malloced: v8.getHeapStatistics().malloced_memory,
    resident: residentParts(),
    threads: fs.readdirSync('/proc/self/task').length,
    resources: process
      .getActiveResourcesInfo()
      .reduce<Record<string, number>>((n, kind) => ({ ...n, [kind]: (n[kind] ?? 0) + 1 }), {}),
  }
}

function allocationStop(): AllocationAnswer {
  const result = profiler?.stop()
  profiler = null
  const stats = result?.statistics ?? []
  const freed = stats.reduce(
    (sum, s) =>
      sum + Math.max(0, s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize),
    0,
  )
  const gcMs = stats.reduce((sum, s) => sum + s.cost, 0) / 1000
  const cpu = process.cpuUsage(cpuAtStart)
  const fullCollections = stats.filter((s) => s.gcType === 'MarkSweepCompact').length
  return {
    allocated: v8.getHeapStatistics().used_heap_size - usedAtStart + freed,
    cpuMs: cpuMs(cpu),
    collections: stats.length,
    fullCollections,
    gcMs,
  }
}

if (process.send) {
  // The channel must not keep a server alive that was told to stop.
  process.channel?.unref()
  process.on('message', (question: ProbeQuestion) => {
    let answer: unknown = null
    if (question.ask === 'memory') answer = memory(question.settle === true)
    else if (question.ask === 'allocation-start') {
      profiler?.stop()
      profiler = new v8.GCProfiler()
      usedAtStart = v8.getHeapStatistics().used_heap_size
      cpuAtStart = process.cpuUsage()
      profiler.start()
    } else if (question.ask === 'allocation-stop') answer = allocationStop()
    process.send!({ id: question.id, answer })
  })
}
