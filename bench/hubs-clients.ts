// The client side of the hubs benchmark, in its own process (forked by bench/hubs.ts): many raw `ws`
// connections speaking each server's protocol minimally, so the client cost is the same for all:
//   signalr  handshake {"protocol":"json","version":1}\x1e, records end with \x1e, pings answered
//   eio      Engine.IO v4 / Socket.IO: ?EIO=4&transport=websocket, "40" to connect, "42[...]" events, "2" → "3"
//   ws       each text message is one JSON array
// Every delivery is parsed (JSON.parse) the same way and its latency (now − sentAt) recorded.
import WebSocket from 'ws'

type Protocol = 'signalr' | 'eio' | 'ws'
type Command =
  | { op: 'connect'; total: number }
  | { op: 'expect'; deliveries: number; keepLatencies?: boolean }
  | { op: 'status' }
  | { op: 'close' }

const protocol = process.argv[2] as Protocol
const url = process.argv[3]
const RS = '\x1e'
const now = () => performance.timeOrigin + performance.now()
const sockets: WebSocket[] = []

let expected = 0
let received = 0
let firstAt = 0
let lastAt = 0
let latencies = new Float64Array(0)
/** Latencies of earlier rounds kept for a combined percentile (interleaved latency rounds). */
let kept: Float64Array[] = []
let errors = 0
let cpuAt = process.cpuUsage()

function delivered(sentAt: number) {
  const t = now()
  if (!received) firstAt = t
  lastAt = t
  if (received < latencies.length) latencies[received] = t - sentAt
  received++
  if (expected && received === expected) report()
}

function report() {
  kept.push(latencies.slice(0, Math.min(received, latencies.length)))
  const n = kept.reduce((sum, k) => sum + k.length, 0)
  const sorted = new Float64Array(n)
  let offset = 0
  for (const k of kept) {
    sorted.set(k, offset)
    offset += k.length
  }
  sorted.sort()
  const at = (q: number) => (n ? sorted[Math.min(n - 1, Math.floor(q * n))] : NaN)
  const cpu = process.cpuUsage(cpuAt)
  process.send!({
    op: 'done',
    received,
    firstAt,
    lastAt,
    p50: at(0.5),
    p99: at(0.99),
    max: at(1),
    clientCpuMs: (cpu.user + cpu.system) / 1000,
  })
  expected = 0
}

function open(): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false })
    let ready = false
    const becomeReady = () => {
      ready = true
      sockets.push(ws)
      resolve()
    }
    ws.on('error', (error) => {
      errors++
      if (!ready) reject(error)
    })
    ws.on('open', () => {
      if (protocol === 'signalr') ws.send(`{"protocol":"json","version":1}${RS}`)
      else if (protocol === 'ws') becomeReady()
    })
    ws.on('message', (data: Buffer) => {
      const text = data.toString()
      if (protocol === 'signalr') {
        let start = 0
        for (let end = text.indexOf(RS); end !== -1; start = end + 1, end = text.indexOf(RS, start)) {
          const record = text.slice(start, end)
          if (!ready) {
            if (record === '{}') becomeReady()
            else reject(new Error(`handshake failed: ${record}`))
          } else if (record === '{"type":6}') ws.send(`{"type":6}${RS}`)
          else {
            const message = JSON.parse(record) as { type: number; arguments: [number, number, string] }
            if (message.type === 1) delivered(message.arguments[1])
          }
        }
      } else if (protocol === 'eio') {
        if (text === '2') ws.send('3')
        else if (text.startsWith('42'))
          delivered((JSON.parse(text.slice(2)) as [string, number, number, string])[2])
        else if (text.startsWith('0')) ws.send('40')
        else if (text.startsWith('40') && !ready) becomeReady()
      } else {
        delivered((JSON.parse(text) as [string, number, number, string])[2])
      }
    })
  })
}

process.on('message', async (command: Command) => {
  if (command.op === 'connect') {
    // In batches, so the server sees a realistic trickle rather than thousands of upgrades at once.
    while (sockets.length < command.total) {
      const batch = Math.min(100, command.total - sockets.length)
      await Promise.all(Array.from({ length: batch }, open))
    }
    return process.send!({ op: 'connected', connections: sockets.length, errors })
  }
  if (command.op === 'expect') {
    expected = command.deliveries
    received = 0
    if (!command.keepLatencies) kept = []
    latencies = new Float64Array(command.deliveries)
    cpuAt = process.cpuUsage()
    return process.send!({ op: 'expecting' })
  }
  if (command.op === 'status')
    return process.send!({
      op: 'status',
      received,
      expected,
      errors,
      open: sockets.filter((s) => s.readyState === WebSocket.OPEN).length,
    })
  if (command.op === 'close') {
    for (const ws of sockets) ws.terminate()
    process.exit(0)
  }
})

// Like the official client, a SignalR client pings on its own (every 15 s there; 10 s here), so the
// server's 30 s client timeout never ends an idle benchmark connection. Real clients' pings are
// spread over time, so a hundredth of the sockets ping every 100 ms: a burst of a tenth of them
// once a second kept this process (and the server) busy for milliseconds in the middle of
// deliveries, a cost the other protocols' clients do not pay.
const PING_SLOTS = 100
let pingTick = 0
if (protocol === 'signalr') {
  setInterval(() => {
    const slot = pingTick++ % PING_SLOTS
    for (let i = slot; i < sockets.length; i += PING_SLOTS) sockets[i].send(`{"type":6}${RS}`)
  }, 10_000 / PING_SLOTS).unref()
}

process.send!({ op: 'ready' })
