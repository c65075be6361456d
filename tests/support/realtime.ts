// Shared fixtures for the realtime tests: a bare http server around a HubServer, a test hub, and the official client.
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as signalR from '@microsoft/signalr'
import { createHubServer, HubError } from '#server/realtime/index.ts'
import type { HubDefinition, HubServer, HubServerOptions, HubUser } from '#server/realtime/index.ts'

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export async function waitFor<T>(
  check: () => T | undefined | null | false,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await sleep(10)
  }
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** Tokens look like `user-<id>-<session>`; anything else is anonymous. Calls are recorded. */
export function makeAuth() {
  const calls: { method: string | undefined; url: string | undefined; token: string | null }[] = []
  const authenticate = async (
    req: import('node:http').IncomingMessage,
    token: string | null,
  ): Promise<HubUser | null> => {
    calls.push({ method: req.method, url: req.url, token })
    const match = token ? /^user-(\d+)-(\w+)$/.exec(token) : null
    return match ? { userId: Number(match[1]), sessionId: match[2] } : null
  }
  return { authenticate, calls }
}

/** A 1 MB string with multi-byte characters and escapes, so any split or re-encoding shows. */
export function bigPayload(size = 1_000_000): string {
  const alphabet = 'abcXYZ019 üé€𝄞"\\\n\t\u2028'
  let out = ''
  let i = 0
  while (out.length < size) out += alphabet[i++ % alphabet.length] + String(i % 97)
  return out.slice(0, size)
}

export interface TestHubState {
  connected: string[]
  disconnected: string[]
  received: unknown[]
  streamStopped: { promise: Promise<void>; resolve: () => void }
  produced: number
}

export function testHub(state: TestHubState, name = 'chat', requireUser = false): HubDefinition {
  return {
    name,
    requireUser,
    methods: {
      echo: (_ctx, value: unknown) => value,
      zero: () => 0,
      false: () => false,
      empty: () => '',
      nothing: () => null,
      void: () => undefined,
      add: async (_ctx, a: number, b: number) => {
        await sleep(1)
        return a + b
      },
      whoAmI: (ctx) => ({ connectionId: ctx.connectionId, user: ctx.user }),
      fail: () => {
        throw new Error('secret database details')
      },
      failVisibly: () => {
        throw new HubError('Project not found')
      },
      record: (_ctx, value: unknown) => {
        state.received.push(value)
      },
      join: (ctx, group: string) => ctx.groups.add(group),
      leave: (ctx, group: string) => ctx.groups.remove(group),
      big: (_ctx, size: number) => bigPayload(size),
      pushBig: async (ctx, size: number) => {
        await ctx.hub.toConnection(ctx.connectionId).send('big', bigPayload(size))
      },
      counter: async function* (_ctx, count: number, delayMs: number) {
        for (let i = 0; i < count; i++) {
          yield i
          if (delayMs) await sleep(delayMs)
        }
      },
      undefinedItems: async function* () {
        yield undefined
        yield 0
      },
      failingStream: async function* () {
        yield 1
        throw new Error('stream broke')
      },
      endless: async function* (ctx) {
        try {
          for (let i = 0; !ctx.signal.aborted; i++) {
            state.produced = i + 1
            yield i
            await sleep(10)
          }
        } finally {
          state.streamStopped.resolve()
        }
      },
      askCaller: (ctx, target: string, ...args: unknown[]) => ctx.invoke(target, ...args),
      sum: async (_ctx, numbers: AsyncIterable<number>) => {
        let total = 0
        for await (const n of numbers) total += n
        return total
      },
    },
    onConnected(ctx) {
      state.connected.push(ctx.connectionId)
    },
    onDisconnected(ctx) {
      state.disconnected.push(ctx.connectionId)
    },
  }
}

export function newState(): TestHubState {
  return { connected: [], disconnected: [], received: [], streamStopped: deferred<void>(), produced: 0 }
}

export interface Harness {
  url: string
  origin: string
  http: Server
  hub: HubServer
  state: TestHubState
  auth: ReturnType<typeof makeAuth>
  /** Swaps in a fresh HubServer (as after a restart) and closes the old one. */
  restartHub(): Promise<void>
  close(): Promise<void>
}

export async function startHarness(options: Partial<HubServerOptions> = {}): Promise<Harness> {
  const state = newState()
  const auth = makeAuth()
  const make = (): HubServer =>
    createHubServer({
      hubs: [
        testHub(state),
        testHub(state, 'secure', true),
        {
          name: 'greeter',
          methods: {},
          async onConnected(ctx) {
            await ctx.groups.add('lobby')
            await ctx.hub.toConnection(ctx.connectionId).send('welcome', ctx.connectionId)
          },
        },
        {
          name: 'broken',
          methods: {},
          onConnected() {
            throw new Error('database down')
          },
          onDisconnected() {
            state.disconnected.push('broken')
          },
        },
      ],
      authenticate: auth.authenticate,
      ...options,
    })
  let hub = make()
  const http = createServer((req, res) => {
    if (!hub.handleRequest(req, res)) {
      res.writeHead(404)
      res.end('not a hub')
    }
  })
  http.on('upgrade', (req, socket, head) => {
    if (!hub.handleUpgrade(req, socket, head)) socket.destroy()
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  await hub.ready
  const { port } = http.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  const harness: Harness = {
    url: `${origin}/hubs/chat`,
    origin,
    http,
    get hub() {
      return hub
    },
    state,
    auth,
    async restartHub() {
      // Like a process restart: the old server finishes its own connections before the new one takes over.
      const next = make()
      await next.ready
      await hub.close()
      hub = next
    },
    async close() {
      await hub.close()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
  return harness
}

export type TransportChoice = 'WebSockets' | 'ServerSentEvents' | 'LongPolling' | 'auto'
export const TRANSPORTS: TransportChoice[] = ['WebSockets', 'ServerSentEvents', 'LongPolling', 'auto']

export interface ClientOptions {
  token?: string
  reconnectDelays?: number[]
  serverTimeoutMs?: number
  keepAliveMs?: number
  headers?: Record<string, string>
  url?: string
}

export function makeClient(url: string, transport: TransportChoice, options: ClientOptions = {}) {
  const logs: string[] = []
  const httpOptions: signalR.IHttpConnectionOptions = {}
  if (transport !== 'auto') httpOptions.transport = signalR.HttpTransportType[transport]
  if (options.token) httpOptions.accessTokenFactory = () => options.token!
  if (options.headers) httpOptions.headers = options.headers
  let builder = new signalR.HubConnectionBuilder()
    .withUrl(options.url ?? url, httpOptions)
    .configureLogging({ log: (_level: signalR.LogLevel, message: string) => void logs.push(message) })
  if (options.reconnectDelays) builder = builder.withAutomaticReconnect(options.reconnectDelays)
  if (options.serverTimeoutMs) builder = builder.withServerTimeout(options.serverTimeoutMs)
  if (options.keepAliveMs) builder = builder.withKeepAliveInterval(options.keepAliveMs)
  const connection = builder.build()
  const closed = deferred<Error | undefined>()
  connection.onclose((error) => closed.resolve(error))
  return { connection, logs, closed: closed.promise }
}

/** The transport the client actually used, from its own log lines. */
export function usedTransport(logs: string[]): string | undefined {
  for (const line of logs) {
    const match = /Connection started with transport '(\w+)'|Selecting transport '(\w+)'/.exec(line)
    if (match) return match[1] ?? match[2]
  }
  return undefined
}

export { signalR }
