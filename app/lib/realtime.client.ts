import {
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  type HubConnection,
  type ILogger,
} from '@microsoft/signalr'

// The browser side of the hubs (docs/product.md §4, §7, §9): one connection manager per hub on the official
// @microsoft/signalr client. This module is the only one that imports the client; the UI loads it
// with a dynamic import after hydration and only for signed-in users (app/components/realtime.tsx),
// so public pages never download it. Pages work without it: the hubs only add live updates.

export type HubName = 'chat' | 'notifications'
export const HUB_NAMES: readonly HubName[] = ['chat', 'notifications']
export type RealtimeState = 'disconnected' | 'connecting' | 'connected'

/** docs/product.md §9 and how each one is kept. */
export const REALTIME_LIMITS = {
  /** No message from the server for 30 s closes the connection (the client skips it on long polling). */
  serverTimeoutMs: 30_000,
  /** Client pings; half the server's 30 s client timeout. */
  keepAliveMs: 15_000,
  /** The server holds a long poll for 90 s (server/realtime DEFAULT_TIMEOUTS.pollTimeoutMs); the client's poll request gives up at 100 s, after it. */
  longPollMs: 90_000,
  /** The client follows at most 100 negotiate redirects (its MAX_REDIRECTS), then fails to start. */
  maxNegotiateRedirects: 100,
  /** stop() waits this long for the transport to shut down, then gives up on it. */
  transportShutdownWaitMs: 5_000,
  /** Automatic reconnect delays after a drop (the client's default policy). */
  reconnectDelaysMs: [0, 2_000, 10_000, 30_000],
  /** Retries of a failed start() (network down, server restarting), then wait for the browser to go online. */
  startRetryDelaysMs: [2_000, 10_000, 30_000],
} as const

/** What kind of failure an error from the client is (docs/product.md §8: each is logged and closes the connection). */
export function classifyRealtimeError(
  error: unknown,
):
  | 'negotiate'
  | 'unsupported-transport'
  | 'server-timeout'
  | 'handshake'
  | 'server-close'
  | 'unauthorized'
  | 'other' {
  const e = error as { name?: string; message?: string; statusCode?: number } | undefined
  const message = String(e?.message ?? error ?? '')
  if (/Server timeout elapsed/i.test(message)) return 'server-timeout'
  if (/handshake/i.test(message)) return 'handshake'
  if (/Server returned an error on close/i.test(message)) return 'server-close'
  if (e?.statusCode === 401 || e?.statusCode === 403 || /Status code '40[13]'/.test(message))
    return 'unauthorized'
  if (e?.name === 'FailedToNegotiateWithServerError' || /negotiat/i.test(message)) return 'negotiate'
  if (
    e?.name === 'UnsupportedTransportError' ||
    e?.name === 'DisabledTransportError' ||
    /transports? (supported|available)|Unable to connect to the server with any of the available transports/i.test(
      message,
    )
  )
    return 'unsupported-transport'
  return 'other'
}

/** Console logging in development; production builds print nothing (docs/product.md §9). */
export function createRealtimeLogger(silent: boolean): ILogger {
  return {
    log(level, message) {
      if (silent || level < LogLevel.Warning) return
      if (level >= LogLevel.Error) console.error(`[realtime] ${message}`)
      else console.warn(`[realtime] ${message}`)
    },
  }
}

type Handler = (...args: unknown[]) => void

export class HubManager {
  readonly hub: HubName
  state: RealtimeState = 'disconnected'
  private readonly connection: HubConnection
  private readonly logger: ILogger
  private readonly listeners = new Set<(state: RealtimeState) => void>()
  private readonly handlers = new Map<string, Set<Handler>>()
  private readonly groups = new Map<string, number>()
  private stopped = true
  private starting: Promise<void> | null = null
  private retry: ReturnType<typeof setTimeout> | null = null
  private attempts = 0

  constructor(hub: HubName, options: { baseUrl: string; logger: ILogger }) {
    this.hub = hub
    this.logger = options.logger
    // The session cookie goes along (same origin, withCredentials): no token in the page.
    this.connection = new HubConnectionBuilder()
      .withUrl(`${options.baseUrl}/${hub}`, { withCredentials: true, logger: options.logger })
      .withAutomaticReconnect([...REALTIME_LIMITS.reconnectDelaysMs])
      .withServerTimeout(REALTIME_LIMITS.serverTimeoutMs)
      .withKeepAliveInterval(REALTIME_LIMITS.keepAliveMs)
      .configureLogging(options.logger)
      .build()
    this.connection.onreconnecting((error) => {
      if (error) this.report(error, 'connection lost; reconnecting')
      this.set('connecting')
    })
    this.connection.onreconnected(() => {
      this.set('connected')
      // A reconnect is a new connection on the server: group memberships are gone.
      this.rejoin()
    })
    // A server Close without allowReconnect, a server timeout after the retries, or stop(): the end.
    this.connection.onclose((error) => {
      this.set('disconnected')
      if (error) this.report(error, 'connection closed')
    })
  }

  subscribe(listener: (state: RealtimeState) => void): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** Calls `handler` for every `target` message from the server; returns the unsubscribe. */
  on(target: string, handler: Handler): () => void {
    const key = target.toLowerCase()
    let set = this.handlers.get(key)
    if (!set) {
      this.handlers.set(key, (set = new Set()))
      this.connection.on(target, (...args: unknown[]) => {
        for (const h of [...(this.handlers.get(key) ?? [])]) h(...args)
      })
    }
    set.add(handler)
    return () => void set.delete(handler)
  }

  /** Joins a group (a chat room, a project) now and after every reconnect, until the returned function is called. */
  join(group: string): () => void {
    const count = (this.groups.get(group) ?? 0) + 1
    this.groups.set(group, count)
    if (count === 1 && this.state === 'connected') this.invokeGroup('JoinGroup', group)
    let left = false
    return () => {
      if (left) return
      left = true
      const rest = (this.groups.get(group) ?? 1) - 1
      if (rest > 0) return void this.groups.set(group, rest)
      this.groups.delete(group)
      if (this.state === 'connected') this.invokeGroup('LeaveGroup', group)
    }
  }

  /** Sends a hub method call without waiting for its result (typing indicators); nothing while not connected. */
  send(method: string, ...args: unknown[]): void {
    if (this.state !== 'connected') return
    this.connection
      .send(method, ...args)
      .catch((error: unknown) =>
        this.logger.log(
          LogLevel.Warning,
          `${this.hub}: ${method} failed: ${String((error as Error)?.message ?? error)}`,
        ),
      )
  }

  start(): Promise<void> {
    this.stopped = false
    return (this.starting ??= this.startOnce().finally(() => (this.starting = null)))
  }

  /** Stops for good; waits at most the transport shutdown time (docs/product.md §9: 5 s). */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
    await Promise.race([
      this.connection.stop().catch(() => undefined),
      new Promise((r) => setTimeout(r, REALTIME_LIMITS.transportShutdownWaitMs)),
    ])
    this.set('disconnected')
  }

  /** The browser came back online or the tab became visible: start again if the connection had ended. */
  wake(): void {
    if (this.stopped || this.connection.state !== HubConnectionState.Disconnected || this.starting) return
    this.attempts = 0
    void this.start()
  }

  private async startOnce(): Promise<void> {
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
    if (this.connection.state !== HubConnectionState.Disconnected) return
    this.set('connecting')
    try {
      await this.connection.start()
      if (this.stopped) return void (await this.connection.stop())
      this.attempts = 0
      this.set('connected')
      this.rejoin()
    } catch (error) {
      const kind = this.report(error, 'could not connect')
      // Negotiate failures, unsupported transports, server timeouts and handshake errors close it.
      await this.connection.stop().catch(() => undefined)
      this.set('disconnected')
      // Signed out, or a handshake refusal: trying again will not help. Otherwise retry a few times.
      const delay = REALTIME_LIMITS.startRetryDelaysMs[this.attempts++]
      if (!this.stopped && kind !== 'unauthorized' && kind !== 'handshake' && delay !== undefined) {
        this.retry = setTimeout(() => void this.start(), delay)
      }
    }
  }

  private rejoin(): void {
    for (const group of this.groups.keys()) this.invokeGroup('JoinGroup', group)
  }

  private invokeGroup(method: 'JoinGroup' | 'LeaveGroup', group: string): void {
    this.connection
      .invoke(method, group)
      .catch((error: unknown) =>
        this.logger.log(
          LogLevel.Warning,
          `${this.hub}: ${method} '${group}' failed: ${String((error as Error)?.message ?? error)}`,
        ),
      )
  }

  private report(error: unknown, what: string) {
    const kind = classifyRealtimeError(error)
    this.logger.log(
      LogLevel.Error,
      `${this.hub}: ${what} (${kind}): ${String((error as Error)?.message ?? error)}`,
    )
    return kind
  }

  private set(state: RealtimeState): void {
    if (this.state === state) return
    this.state = state
    for (const listener of [...this.listeners]) listener(state)
  }
}

export interface RealtimeClient {
  hub(name: HubName): HubManager
  start(): void
  stop(): Promise<void>
}

export function createRealtimeClient(options: { baseUrl?: string; silent?: boolean } = {}): RealtimeClient {
  const logger = createRealtimeLogger(options.silent ?? import.meta.env.PROD)
  const managers = new Map(
    HUB_NAMES.map((name) => [name, new HubManager(name, { baseUrl: options.baseUrl ?? '/hubs', logger })]),
  )
  const wake = () => {
    if (document.visibilityState === 'visible') for (const m of managers.values()) m.wake()
  }
  const starts: ReturnType<typeof setTimeout>[] = []
  return {
    hub: (name) => managers.get(name)!,
    start() {
      window.addEventListener('online', wake)
      document.addEventListener('visibilitychange', wake)
      // Each hub starts in a task of its own, after the one that loaded this module: the three
      // together were one task of 10-16 ms on a signed-in page's start (decision 361).
      for (const m of managers.values()) starts.push(setTimeout(() => void m.start(), starts.length))
    },
    async stop() {
      for (const timer of starts.splice(0)) clearTimeout(timer)
      window.removeEventListener('online', wake)
      document.removeEventListener('visibilitychange', wake)
      await Promise.all([...managers.values()].map((m) => m.stop()))
    },
  }
}
