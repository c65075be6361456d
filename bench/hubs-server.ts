// One fan-out server for the hubs benchmark, in its own process (forked by bench/hubs.ts with an IPC
// channel and --expose-gc). argv[2] picks the server:
//   workneer  Workneer's SignalR hub server (server/realtime) on a bare http server, hub "bench"
//   socketio  Socket.IO 4 (WebSocket transport only, no compression)
//   ws        a bare `ws` server that broadcasts by looping over its clients
// Every broadcast carries (seq, sentAt, pad): sentAt is performance.timeOrigin + performance.now(),
// so the client process can compute send-to-delivery latency on the same clock.
import http from 'node:http'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { WebSocketServer } from 'ws'
import { Server as SocketIoServer } from 'socket.io'
import { createHubServer } from '#server/realtime/index.ts'

type Kind = 'workneer' | 'socketio' | 'ws'
type Command =
  | { op: 'broadcast'; count: number; perTurn: number }
  | { op: 'paced'; count: number; intervalMs: number }
  | { op: 'memory' }
  | { op: 'exit' }

const kind = process.argv[2] as Kind
const PAD = 'x'.repeat(64)
const now = () => performance.timeOrigin + performance.now()

const server = http.createServer()
server.keepAliveTimeout = 60_000
let broadcast: (seq: number) => void
let connections: () => number

if (kind === 'workneer') {
  const hubs = createHubServer({ hubs: [{ name: 'bench', methods: {} }], authenticate: async () => null })
  await hubs.ready
  server.on('request', (req, res) => {
    if (!hubs.handleRequest(req, res)) res.writeHead(404).end()
  })
  server.on('upgrade', (req, socket, head) => {
    if (!hubs.handleUpgrade(req, socket, head)) socket.destroy()
  })
  const all = hubs.get('bench').toAll()
  broadcast = (seq) => void all.send('tick', seq, now(), PAD).catch(() => undefined)
  connections = () => hubs.stats().connections
} else if (kind === 'socketio') {
  const io = new SocketIoServer(server, {
    transports: ['websocket'],
    perMessageDeflate: false,
    httpCompression: false,
    serveClient: false,
  })
  broadcast = (seq) => void io.emit('tick', seq, now(), PAD)
  connections = () => io.engine.clientsCount
} else if (kind === 'ws') {
  const wss = new WebSocketServer({ server, perMessageDeflate: false })
  broadcast = (seq) => {
    const data = JSON.stringify(['tick', seq, now(), PAD])
    for (const client of wss.clients) client.send(data)
  }
  connections = () => wss.clients.size
} else {
  throw new Error(`unknown server kind ${kind}`)
}

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
const port = (server.address() as { port: number }).port
const send = (message: object) => process.send!(message)

function memory() {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
  return {
    rss: process.memoryUsage().rss,
    heapUsed: process.memoryUsage().heapUsed,
    connections: connections(),
  }
}

let seq = 0
process.on('message', async (command: Command) => {
  if (command.op === 'memory') return send({ op: 'memory', ...memory() })
  if (command.op === 'exit') return process.exit(0)
  if (command.op === 'broadcast') {
    // As fast as the server can go, letting the event loop turn every `perTurn` sends so its
    // sockets flush (and pings are answered) as they would in production.
    const started = now()
    for (let i = 0; i < command.count; i++) {
      broadcast(++seq)
      if ((i + 1) % command.perTurn === 0) await yieldToLoop()
    }
    return send({ op: 'sent', started, finished: now() })
  }
  if (command.op === 'paced') {
    const started = now()
    // How long the server itself spends writing one broadcast to every socket (synchronous part).
    const spent: number[] = []
    // CPU time (user + system) of the same calls: unlike wall time it barely depends on what else
    // the machine runs, so it shows the server's own cost per broadcast.
    const cpu: number[] = []
    for (let i = 0; i < command.count; i++) {
      const t = now()
      const c = process.cpuUsage()
      broadcast(++seq)
      spent.push(now() - t)
      const used = process.cpuUsage(c)
      cpu.push((used.user + used.system) / 1000)
      await new Promise((r) => setTimeout(r, command.intervalMs))
    }
    spent.sort((a, b) => a - b)
    cpu.sort((a, b) => a - b)
    return send({
      op: 'sent',
      started,
      finished: now(),
      writeMedianMs: spent[Math.floor(spent.length / 2)],
      writeMaxMs: spent[spent.length - 1],
      cpuMedianMs: cpu[Math.floor(cpu.length / 2)],
    })
  }
})

send({ op: 'ready', port, ...memory() })
