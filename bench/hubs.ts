import { fork, type ChildProcess } from 'node:child_process'
import path from 'node:path'

// The hubs benchmark (issue 7): fan-out of one broadcast to many connected clients, for Workneer's
// SignalR hub server, Socket.IO and a bare `ws` broadcast. Each server runs in its own process
// (bench/hubs-server.ts), all clients in another (bench/hubs-clients.ts, raw `ws` for every
// protocol), on loopback only. Bounded: a fixed number of messages and connections, a timeout on
// every wait, and every child is ended at the close. `node bench/hubs.ts` runs it alone.

const here = import.meta.dirname
type Kind = 'workneer' | 'socketio' | 'ws'
const protocolOf: Record<Kind, string> = { workneer: 'signalr', socketio: 'eio', ws: 'ws' }
const pathOf: Record<Kind, string> = { workneer: '/hubs/bench', socketio: '/socket.io/?EIO=4&transport=websocket', ws: '/' }
const labelOf: Record<Kind, string> = { workneer: 'Workneer hubs (SignalR)', socketio: 'Socket.IO 4', ws: 'bare ws broadcast' }

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
  /** RSS growth per idle connection (bytes), measured after a forced GC at FANOUT and at LATENCY_CONNECTIONS. */
  bytesPerConnection: number
  bytesPerConnectionAtLatency: number
}

const FANOUT = Number(process.env.BENCH_HUBS_FANOUT ?? 1000)
const LATENCY_CONNECTIONS = Number(process.env.BENCH_HUBS_CONNECTIONS ?? 2000)
const MESSAGES_PER_ROUND = Number(process.env.BENCH_HUBS_MESSAGES ?? 200)
const ROUNDS = 3
const PACED_MESSAGES = 50
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
const profile = process.env.BENCH_HUBS_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HUBS_PROFILE}`] : []
const start = (script: string, args: string[]) =>
  fork(path.join(here, script), args, { execArgv: ['--expose-gc', ...profile], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function benchOne(kind: Kind): Promise<HubsResult> {
  const server = start('hubs-server.ts', [kind])
  let clients: ChildProcess | undefined
  try {
    const ready = await next(server, 'ready')
    const baseRss = ready.rss as number
    clients = start('hubs-clients.ts', [protocolOf[kind], `ws://127.0.0.1:${ready.port}${pathOf[kind]}`])
    await next(clients, 'ready')
    const connect = async (total: number) => {
      clients!.send({ op: 'connect', total })
      const done = await next(clients!, 'connected', 120_000)
      if (done.connections !== total) throw new Error(`${kind}: ${done.connections} of ${total} connected`)
      await sleep(500)
      server.send({ op: 'memory' })
      const memory = await next(server, 'memory')
      if (memory.connections !== total) throw new Error(`${kind}: the server counts ${memory.connections} connections, not ${total}`)
      return ((memory.rss as number) - baseRss) / total
    }
    const round = async (messages: number, connections: number, command: object): Promise<Message> => {
      clients!.send({ op: 'expect', deliveries: messages * connections })
      await next(clients!, 'expecting')
      const done = next(clients!, 'done')
      server.send(command)
      const sent = await next(server, 'sent')
      const result = await done.catch(async (error: Error) => {
        clients!.send({ op: 'status' })
        const status = await next(clients!, 'status', 5000).catch(() => ({}))
        throw new Error(`${kind}: ${error.message} (clients: ${JSON.stringify(status)})`)
      })
      return { ...result, started: sent.started as number }
    }

    const bytesPerConnection = await connect(FANOUT)
    await round(50, FANOUT, { op: 'broadcast', count: 50, perTurn: 10 }) // warm-up, not reported
    const rounds: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const r = await round(MESSAGES_PER_ROUND, FANOUT, { op: 'broadcast', count: MESSAGES_PER_ROUND, perTurn: 10 })
      rounds.push(Math.round((MESSAGES_PER_ROUND * FANOUT) / (((r.lastAt as number) - (r.started as number)) / 1000)))
    }
    const bytesPerConnectionAtLatency = await connect(LATENCY_CONNECTIONS)
    const paced = await round(PACED_MESSAGES, LATENCY_CONNECTIONS, { op: 'paced', count: PACED_MESSAGES, intervalMs: PACED_INTERVAL_MS })
    const sorted = [...rounds].sort((a, b) => a - b)
    return {
      kind,
      label: labelOf[kind],
      deliveriesPerSecond: sorted[Math.floor(sorted.length / 2)],
      rounds,
      p50: paced.p50 as number,
      p99: paced.p99 as number,
      max: paced.max as number,
      bytesPerConnection,
      bytesPerConnectionAtLatency,
    }
  } finally {
    // SIGTERM's default action would skip the profile; 'exit' lets the children write theirs.
    if (profile.length) {
      clients?.send({ op: 'close' })
      server.send({ op: 'exit' })
      await sleep(2000)
    }
    clients?.kill('SIGKILL')
    server.kill('SIGKILL')
  }
}

export async function runHubsBench(): Promise<HubsResult[]> {
  const results: HubsResult[] = []
  const only = process.env.BENCH_HUBS_ONLY?.split(',')
  for (const kind of ['workneer', 'socketio', 'ws'] as const) if (!only || only.includes(kind)) results.push(await benchOne(kind))
  printHubs(results)
  return results
}

export function printHubs(results: HubsResult[]) {
  const kb = (b: number) => (b / 1024).toFixed(1)
  console.log(`\nHub fan-out: one broadcast to ${FANOUT} clients, ${ROUNDS} rounds of ${MESSAGES_PER_ROUND} messages; latency with ${LATENCY_CONNECTIONS} connections, ${PACED_MESSAGES} messages every ${PACED_INTERVAL_MS} ms`)
  console.log('| server | deliveries/s (median) | rounds | p50 ms | p99 ms | max ms | KB per idle connection (1k / 2k) |')
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: |')
  for (const r of results) {
    console.log(`| ${r.label} | ${r.deliveriesPerSecond} | ${r.rounds.join(', ')} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${kb(r.bytesPerConnection)} / ${kb(r.bytesPerConnectionAtLatency)} |`)
  }
  const by = Object.fromEntries(results.map((r) => [r.kind, r])) as Record<Kind, HubsResult>
  if (by.workneer && by.socketio && by.ws) {
    const vsIo = by.workneer.deliveriesPerSecond / by.socketio.deliveriesPerSecond
    const vsWs = by.workneer.deliveriesPerSecond / by.ws.deliveriesPerSecond
    const ok = (pass: boolean) => (pass ? 'meets the target' : 'MISSES the target')
    console.log(`ratio Workneer/Socket.IO: ${vsIo.toFixed(2)} (target ≥ 1: ${ok(vsIo >= 1)})`)
    console.log(`ratio Workneer/ws: ${vsWs.toFixed(2)} (target ≥ 0.7: ${ok(vsWs >= 0.7)})`)
    console.log(`Workneer p99 with ${LATENCY_CONNECTIONS} connections: ${by.workneer.p99.toFixed(1)} ms (target < 50 ms: ${ok(by.workneer.p99 < 50)})`)
    console.log(`Workneer memory per idle connection: ${kb(by.workneer.bytesPerConnectionAtLatency)} KB (RSS delta / ${LATENCY_CONNECTIONS} connections)`)
  }
}

if (import.meta.main) await runHubsBench()
