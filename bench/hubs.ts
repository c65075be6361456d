import { fork, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { availableParallelism, loadavg } from 'node:os'

// The hubs benchmark (issue 7): fan-out of one broadcast to many connected clients, for Workneer's
// SignalR hub server, Socket.IO and a bare `ws` broadcast. Each server runs in its own process
// (bench/hubs-server.ts) and its clients in another (bench/hubs-clients.ts, raw `ws` for every
// protocol, the same code path for all), on loopback only. Bounded: a fixed number of messages and connections, a timeout on
// every wait, and every child is ended at the close. `node bench/hubs.ts` runs it alone.

const here = import.meta.dirname
type Kind = 'workneer' | 'socketio' | 'ws'
const protocolOf: Record<Kind, string> = { workneer: 'signalr', socketio: 'eio', ws: 'ws' }
const pathOf: Record<Kind, string> = {
  workneer: '/hubs/bench',
  socketio: '/socket.io/?EIO=4&transport=websocket',
  ws: '/',
}
const labelOf: Record<Kind, string> = {
  workneer: 'Workneer hubs (SignalR)',
  socketio: 'Socket.IO 4',
  ws: 'bare ws broadcast',
}

export interface HubsResult {
  kind: Kind
  label: string
  /** Median of the measured rounds at FANOUT connections. */
  deliveriesPerSecond: number
  rounds: number[]
  /** Send-to-delivery latency with LATENCY_CONNECTIONS connections, paced sends (ms). */
  p50: number
  p99: number
  max: number
  /** Median time the server spends in one broadcast call to LATENCY_CONNECTIONS sockets (its synchronous writes), ms. */
  serverWriteMs: number
  /** The same calls' median CPU time (user + system), ms: the server's own cost, much less sensitive to other load. */
  serverCpuMs: number
  /** CPU time the client process spends receiving one broadcast on all LATENCY_CONNECTIONS sockets, ms (same code for every server). */
  clientCpuMs: number
  /** RSS growth per idle connection (bytes), measured after a forced GC at FANOUT and at LATENCY_CONNECTIONS. */
  bytesPerConnection: number
  bytesPerConnectionAtLatency: number
}

const FANOUT = Number(process.env.BENCH_HUBS_FANOUT ?? 1000)
const LATENCY_CONNECTIONS = Number(process.env.BENCH_HUBS_CONNECTIONS ?? 2000)
const MESSAGES_PER_ROUND = Number(process.env.BENCH_HUBS_MESSAGES ?? 200)
const ROUNDS = Number(process.env.BENCH_HUBS_ROUNDS ?? 5)
const PACED_MESSAGES = 60
const LATENCY_PARTS = 3
const PACED_INTERVAL_MS = 100
const WAIT_MS = 60_000

type Message = { op: string; [key: string]: unknown }

function next(child: ChildProcess, op: string, timeoutMs = WAIT_MS): Promise<Message> {
  let cleanup = () => {}
  const promise = new Promise<Message>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage)
      reject(new Error(`no '${op}' from the child within ${timeoutMs} ms`))
    }, timeoutMs)
    const onMessage = (message: Message) => {
      if (message.op !== op) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message)
    }
    child.on('message', onMessage)
    const onExit = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`the child exited (${code}) while waiting for '${op}'`))
    }
    child.once('exit', onExit)
    cleanup = () => child.off('exit', onExit)
  })
  void promise.then(cleanup, cleanup)
  return promise
}

// BENCH_HUBS_PROFILE=<dir> writes a CPU profile of every child there.
const profile = process.env.BENCH_HUBS_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HUBS_PROFILE}`]
  : []
const start = (script: string, args: string[]) =>
  fork(path.join(here, script), args, {
    execArgv: ['--expose-gc', ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Running {
  kind: Kind
  server: ChildProcess
  clients: ChildProcess
  baseRss: number
}

async function launch(kind: Kind): Promise<Running> {
  const server = start('hubs-server.ts', [kind])
  const ready = await next(server, 'ready')
  const clients = start('hubs-clients.ts', [protocolOf[kind], `ws://127.0.0.1:${ready.port}${pathOf[kind]}`])
  await next(clients, 'ready')
  return { kind, server, clients, baseRss: ready.rss as number }
}

/** Opens connections up to `total`; returns the server's RSS growth per connection (after a forced GC). */
async function connect(r: Running, total: number): Promise<number> {
  r.clients.send({ op: 'connect', total })
  const done = await next(r.clients, 'connected', 120_000)
  if (done.connections !== total) throw new Error(`${r.kind}: ${done.connections} of ${total} connected`)
  await sleep(500)
  r.server.send({ op: 'memory' })
  const memory = await next(r.server, 'memory')
  if (memory.connections !== total)
    throw new Error(`${r.kind}: the server counts ${memory.connections} connections, not ${total}`)
  return ((memory.rss as number) - r.baseRss) / total
}

async function round(
  r: Running,
  messages: number,
  connections: number,
  command: object,
  keepLatencies = false,
): Promise<Message> {
  r.clients.send({ op: 'expect', deliveries: messages * connections, keepLatencies })
  await next(r.clients, 'expecting')
  const done = next(r.clients, 'done')
  r.server.send(command)
  const sent = await next(r.server, 'sent')
  const result = await done.catch(async (error: Error) => {
    r.clients.send({ op: 'status' })
    const status = await next(r.clients, 'status', 5000).catch(() => ({}))
    throw new Error(`${r.kind}: ${error.message} (clients: ${JSON.stringify(status)})`)
  })
  return {
    ...result,
    started: sent.started as number,
    writeMedianMs: sent.writeMedianMs,
    writeMaxMs: sent.writeMaxMs,
    cpuMedianMs: sent.cpuMedianMs,
    clientCpuPerMessageMs: (result.clientCpuMs as number) / messages,
  }
}

async function stopAll(all: Running[]) {
  // With profiling on, 'exit' lets the children write their profiles (a signal would not).
  if (profile.length) {
    for (const r of all) {
      r.clients.send({ op: 'close' })
      r.server.send({ op: 'exit' })
    }
    await sleep(2000)
  }
  for (const r of all) {
    r.clients.kill('SIGKILL')
    r.server.kill('SIGKILL')
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/**
 * All servers (and their client processes) run side by side; the measured rounds are interleaved
 * (Workneer, Socket.IO, ws, Workneer, …) so that whatever else the machine is doing meanwhile
 * weighs on each server alike. A server is idle while the others take their turn.
 */
export async function runHubsBench(kinds: Kind[] = ['workneer', 'socketio', 'ws']): Promise<HubsResult[]> {
  const only = process.env.BENCH_HUBS_ONLY?.split(',')
  const selected = kinds.filter((k) => !only || only.includes(k))
  const all: Running[] = []
  try {
    for (const kind of selected) all.push(await launch(kind))
    const perConnection = new Map<Kind, number>()
    for (const r of all) perConnection.set(r.kind, await connect(r, FANOUT))
    for (const r of all) await round(r, 50, FANOUT, { op: 'broadcast', count: 50, perTurn: 10 }) // warm-up, not reported
    const rounds = new Map<Kind, number[]>(selected.map((k) => [k, []]))
    for (let i = 0; i < ROUNDS; i++) {
      for (const r of all) {
        const result = await round(r, MESSAGES_PER_ROUND, FANOUT, {
          op: 'broadcast',
          count: MESSAGES_PER_ROUND,
          perTurn: 10,
        })
        rounds
          .get(r.kind)!
          .push(
            Math.round(
              (MESSAGES_PER_ROUND * FANOUT) /
                (((result.lastAt as number) - (result.started as number)) / 1000),
            ),
          )
      }
    }
    const perConnectionAtLatency = new Map<Kind, number>()
    for (const r of all) perConnectionAtLatency.set(r.kind, await connect(r, LATENCY_CONNECTIONS))
    const latency = new Map<Kind, Message>()
    const part = Math.ceil(PACED_MESSAGES / LATENCY_PARTS)
    for (let i = 0; i < LATENCY_PARTS; i++) {
      for (const r of all)
        latency.set(
          r.kind,
          await round(
            r,
            part,
            LATENCY_CONNECTIONS,
            { op: 'paced', count: part, intervalMs: PACED_INTERVAL_MS },
            i > 0,
          ),
        )
    }
    const results = all.map((r): HubsResult => ({
      kind: r.kind,
      label: labelOf[r.kind],
      deliveriesPerSecond: median(rounds.get(r.kind)!),
      rounds: rounds.get(r.kind)!,
      p50: latency.get(r.kind)!.p50 as number,
      p99: latency.get(r.kind)!.p99 as number,
      max: latency.get(r.kind)!.max as number,
      serverWriteMs: latency.get(r.kind)!.writeMedianMs as number,
      serverCpuMs: latency.get(r.kind)!.cpuMedianMs as number,
      clientCpuMs: latency.get(r.kind)!.clientCpuPerMessageMs as number,
      bytesPerConnection: perConnection.get(r.kind)!,
      bytesPerConnectionAtLatency: perConnectionAtLatency.get(r.kind)!,
    }))
    printHubs(results)
    return results
  } finally {
    await stopAll(all)
  }
}

export function printHubs(results: HubsResult[]) {
  const kb = (b: number) => (b / 1024).toFixed(1)
  console.log(
    `\nHub fan-out: one broadcast to ${FANOUT} clients, ${ROUNDS} interleaved rounds of ${MESSAGES_PER_ROUND} messages each; latency with ${LATENCY_CONNECTIONS} connections, ${PACED_MESSAGES} messages every ${PACED_INTERVAL_MS} ms in ${LATENCY_PARTS} interleaved parts`,
  )
  console.log(
    `| server | deliveries/s (median) | rounds | p50 ms | p99 ms | max ms | server ms per broadcast to ${LATENCY_CONNECTIONS} (wall / CPU) | client CPU ms per broadcast | KB per idle connection (${FANOUT} / ${LATENCY_CONNECTIONS}) |`,
  )
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.deliveriesPerSecond} | ${r.rounds.join(', ')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.serverWriteMs.toFixed(1)} / ${r.serverCpuMs.toFixed(1)} | ${r.clientCpuMs.toFixed(1)} | ${kb(r.bytesPerConnection)} / ${kb(r.bytesPerConnectionAtLatency)} |`,
    )
  }
  const by = Object.fromEntries(results.map((r) => [r.kind, r])) as Record<Kind, HubsResult>
  if (by.workneer && by.socketio && by.ws) {
    const vsIo = by.workneer.deliveriesPerSecond / by.socketio.deliveriesPerSecond
    const vsWs = by.workneer.deliveriesPerSecond / by.ws.deliveriesPerSecond
    const ok = (pass: boolean) => (pass ? 'meets the target' : 'MISSES the target')
    console.log(`ratio Workneer/Socket.IO: ${vsIo.toFixed(2)} (target ≥ 1: ${ok(vsIo >= 1)})`)
    console.log(`ratio Workneer/ws: ${vsWs.toFixed(2)} (target ≥ 0.7: ${ok(vsWs >= 0.7)})`)
    console.log(
      `Workneer p99 with ${LATENCY_CONNECTIONS} connections: ${by.workneer.p99.toFixed(1)} ms (target < 50 ms: ${ok(by.workneer.p99 < 50)})`,
    )
    console.log(
      `load average during the run: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          ' ',
        )} on ${availableParallelism()} cores (latencies are wall time and grow with other load; the CPU columns barely do)`,
    )
    console.log(
      `Workneer memory per idle connection: ${kb(by.workneer.bytesPerConnectionAtLatency)} KB (RSS delta / ${LATENCY_CONNECTIONS} connections)`,
    )
  }
}

if (import.meta.main) await runHubsBench()
