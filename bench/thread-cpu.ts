import fs from 'node:fs'

// A process's CPU time by kind of thread, from /proc/<pid>/task/*/stat (utime + stime): the main
// thread (JavaScript), libuv's threadpool (argon2, zlib, fs, DNS), V8's helpers (GC, compilation)
// and the rest. CPU time is what a loaded machine does not inflate much, unlike wall time.
export type ThreadKind = 'main' | 'threadpool' | 'v8' | 'other'
export type ThreadCpu = Record<ThreadKind, number>

// Linux counts utime and stime in clock ticks of 10 ms (USER_HZ = 100 on every current kernel).
const MS_PER_TICK = 10

function kindOf(pid: number, tid: number, name: string): ThreadKind {
  if (tid === pid) return 'main'
  if (name.startsWith('libuv-worker')) return 'threadpool'
  if (name.startsWith('V8Worker') || name.startsWith('DelayedTask')) return 'v8'
  return 'other'
}

/** The CPU ms each kind of thread of `pid` has used since it started (threads that ended are not counted). */
export function threadCpu(pid: number): ThreadCpu {
  const totals: ThreadCpu = { main: 0, threadpool: 0, v8: 0, other: 0 }
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    } catch {
      continue // the thread ended between the listing and the read
    }
    // The name is in parentheses and may hold spaces: the fields after it are counted from its end.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    totals[kindOf(pid, Number(tid), name)] += ticks * MS_PER_TICK
  }
  return totals
}

export const cpuSince = (start: ThreadCpu, end: ThreadCpu): ThreadCpu => ({
  main: end.main - start.main,
  threadpool: end.threadpool - start.threadpool,
  v8: end.v8 - start.v8,
  other: end.other - start.other,
})

export const cpuTotal = (cpu: ThreadCpu) => cpu.main + cpu.threadpool + cpu.v8 + cpu.other
