import http from 'node:http'
import net from 'node:net'
import { randomBytes } from 'node:crypto'
import { freePort, spawnServer, type ServerProcess } from './server-process.ts'

// A small load balancer on loopback for the two-instance proof (issue 19 item 5), doing what an
// operator's proxy does in front of several Workneer servers (docs/scaling-out.md):
// - hub connections are sticky by their connection token: SignalR keeps a connection's state on the
//   instance that negotiated it, so the balancer reads `connectionToken` from each negotiate answer
//   and sends every later request naming it (`?id=`: the WebSocket upgrade, the SSE stream, each
//   long poll and send) to that instance — whatever cookies a cross-origin client sends;
// - other requests are sticky by a cookie of its own (`wk_backend`); one without it goes to the next
//   instance in turn and the answer sets the cookie;
// - WebSocket upgrades are piped through as raw TCP after the request head;
// - X-Forwarded-For carries the client's address (the servers run with TRUST_PROXY=127.0.0.1);
// - an instance that refuses the connection is skipped for that request (it may be restarting).
const COOKIE = 'wk_backend'

export interface Balancer {
  port: number
  /** Requests and upgrades sent to each backend, by index. */
  served: number[]
  close(): Promise<void>
}

function stickyIndex(cookieHeader: string | undefined, count: number) {
  const match = /(?:^|;\s*)wk_backend=(\d+)/.exec(cookieHeader ?? '')
  const index = match ? Number(match[1]) : NaN
  return Number.isInteger(index) && index >= 0 && index < count ? index : null
}

export async function startBalancer(
  port: number,
  backends: Array<{ host: string; port: number }>,
): Promise<Balancer> {
  let next = 0
  const served = backends.map(() => 0)
  // Hub connection tokens → the instance that issued them (the oldest forgotten past a bound).
  const hubConnections = new Map<string, number>()
  const choose = (cookie: string | undefined, url = '') => {
    const token = /[?&]id=([^&]+)/.exec(url)?.[1]
    const owner = token === undefined ? undefined : hubConnections.get(decodeURIComponent(token))
    if (owner !== undefined) return { index: owner, fresh: false }
    const sticky = stickyIndex(cookie, backends.length)
    if (sticky !== null) return { index: sticky, fresh: false }
    const index = next
    next = (next + 1) % backends.length
    return { index, fresh: true }
  }
  const forwardedFor = (req: http.IncomingMessage) =>
    [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ')

  const server = http.createServer((req, res) => {
    const { index, fresh } = choose(req.headers.cookie, req.url)
    const negotiate = req.method === 'POST' && /^\/hubs\/[^/?]+\/negotiate/.test(req.url ?? '')
    const send = (attempt: number, target: number) => {
      served[target]++
      const headers = { ...req.headers, 'x-forwarded-for': forwardedFor(req) }
      // The negotiate answer is read here, so it must come uncompressed.
      if (negotiate) delete headers['accept-encoding']
      const upstream = http.request(
        { ...backends[target], method: req.method, path: req.url, headers },
        (answer) => {
          const headers = { ...answer.headers }
          if (fresh || target !== index)
            headers['set-cookie'] = [
              ...(answer.headers['set-cookie'] ?? []),
              `${COOKIE}=${target}; Path=/; HttpOnly; SameSite=Lax`,
            ]
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers)
          if (negotiate) {
            const chunks: Buffer[] = []
            answer.on('data', (c: Buffer) => chunks.push(c))
            answer.on('end', () => {
              try {
                const token = JSON.parse(Buffer.concat(chunks).toString('utf8')).connectionToken
                if (typeof token === 'string') {
                  hubConnections.set(token, target)
                  if (hubConnections.size > 100_000)
                    hubConnections.delete(hubConnections.keys().next().value!)
                }
              } catch {
                // not a negotiate answer (an error page): nothing to remember
              }
            })
          }
          answer.pipe(res)
        },
      )
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        // Only a refused connection is retried elsewhere: the request's body has not been read yet.
        if (error.code === 'ECONNREFUSED' && attempt + 1 < backends.length && !res.headersSent)
          return send(attempt + 1, (target + 1) % backends.length)
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway')
        else res.destroy()
      })
      req.pipe(upstream)
    }
    send(0, index)
  })

  // Upgraded connections leave the HTTP server's books: closing ends them here.
  const tunnels = new Set<net.Socket>()
  server.on('upgrade', (req, socket, head) => {
    const { index } = choose(req.headers.cookie, req.url)
    served[index]++
    const upstream = net.connect(backends[index].port, backends[index].host, () => {
      const headers = { ...req.headers, 'x-forwarded-for': forwardedFor(req) }
      const lines = Object.entries(headers).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
      )
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`)
      if (head.length) upstream.write(head)
      upstream.pipe(socket)
      socket.pipe(upstream)
    })
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
    for (const end of [socket as net.Socket, upstream]) {
      tunnels.add(end)
      end.once('close', () => tunnels.delete(end))
    }
  })

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()))
  return {
    port: (server.address() as net.AddressInfo).port,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        for (const socket of tunnels) socket.destroy()
      }),
  }
}

/**
 * Two Workneer servers (the built app) sharing one PostgreSQL database and Redis, behind a balancer
 * on `port` (0: any free port). The first starts alone, so migrations and the demo run once.
 */
export async function startTwoInstances(env: Record<string, string>, port: number) {
  if (!env.DATABASE_URL?.startsWith('postgres'))
    throw new Error('two instances share a PostgreSQL database: set DATABASE_URL')
  // A prefix of the pair's own: its rate limits, hub and page-cache channels start empty, as a new
  // deployment's would, and never mix with another run's on the shared Redis.
  const shared = {
    ...env,
    HOST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    REDIS_URL: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: env.REDIS_PREFIX ?? `wk-pair-${randomBytes(4).toString('hex')}:`,
  }
  const servers: ServerProcess[] = []
  const ports: number[] = []
  for (let i = 0; i < 2; i++) {
    const p = await freePort()
    ports.push(p)
    servers.push(
      await spawnServer(
        `http://127.0.0.1:${p}`,
        { ...shared, PORT: String(p) },
        { timeoutMs: 150_000, pollMs: 250 },
      ),
    )
  }
  const balancer = await startBalancer(
    port,
    ports.map((p) => ({ host: '127.0.0.1', port: p })),
  )
  return {
    balancer,
    base: `http://127.0.0.1:${balancer.port}`,
    output: () => servers.map((s, i) => `--- instance ${i}\n${s.output()}`).join('\n'),
    async stop() {
      await balancer.close()
      await Promise.all(servers.map((s) => s.stop()))
    },
  }
}
