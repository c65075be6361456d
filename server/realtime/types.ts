import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

export interface HubUser {
  userId: number
  sessionId: string
}

/**
 * token: from `Authorization: Bearer` or, on GET and upgrade requests of the hub endpoint only, the
 * `access_token` query parameter. Implementations may also read a session cookie from req.headers.cookie.
 */
export type Authenticate = (req: IncomingMessage, token: string | null) => Promise<HubUser | null>

export interface HubContext {
  connectionId: string
  user: HubUser | null
  /** The client's address when it connected (HubServerOptions.clientAddress). */
  address: string
  hub: HubHandle
  groups: { add(name: string): Promise<void>; remove(name: string): Promise<void> }
  /** Aborted when the client cancels this stream, or when the connection ends. */
  signal: AbortSignal
  /** Per-connection state that lives as long as the connection. */
  items: Map<string, unknown>
  /**
   * Calls a method of this client that returns a value (the protocol's client results) and waits
   * for it: resolves with the client's result, rejects with its error, when it does not answer
   * within the timeout, or when the connection ends.
   */
  invoke(target: string, ...args: unknown[]): Promise<unknown>
}

export interface HubDefinition {
  name: string
  requireUser?: boolean
  methods: Record<string, (ctx: HubContext, ...args: any[]) => unknown>
  onConnected?(ctx: HubContext): void | Promise<void>
  onDisconnected?(ctx: HubContext): void | Promise<void>
}

export interface Sender {
  send(target: string, ...args: unknown[]): Promise<void>
}

export interface HubHandle {
  toAll(): Sender
  toUser(id: number): Sender
  toGroup(name: string): Sender
  toConnection(id: string): Sender
  allExcept(ids: string[]): Sender
  groupExcept(name: string, ids: string[]): Sender
  /** A client result from a connection held by this instance (see HubContext.invoke); other instances' connections are refused. */
  invokeConnection(connectionId: string, target: string, ...args: unknown[]): Promise<unknown>
  /** Adds any connection (on any instance) to a group; rejects if no instance owns it within the ack timeout. */
  addToGroup(connectionId: string, group: string): Promise<void>
  removeFromGroup(connectionId: string, group: string): Promise<void>
}

/**
 * Fan-out between server instances. Channels are logical names (`chat:user:7`); an implementation
 * may prefix them. Delivery is at most once and ordered per channel and publisher.
 */
export interface Backplane {
  publish(channel: string, message: string): Promise<void>
  subscribe(channel: string, handler: (message: string) => void): Promise<void>
  unsubscribe(channel: string, handler: (message: string) => void): Promise<void>
  close(): Promise<void>
}

export interface Logger {
  info(o: object, msg?: string): void
  warn(o: object, msg?: string): void
  error(o: object, msg?: string): void
}

export type TransportName = 'WebSockets' | 'ServerSentEvents' | 'LongPolling'

export interface Timeouts {
  /** Server ping interval when nothing else was sent (not on long polling). 0 disables. */
  keepAliveMs: number
  /** Close a client that sent nothing for this long (not on long polling). 0 disables. */
  clientTimeoutMs: number
  handshakeTimeoutMs: number
  /** How long a long poll is held before it returns empty. */
  pollTimeoutMs: number
  /** Drops negotiated-but-unused connections and long-polling clients that stopped polling. */
  disconnectTimeoutMs: number
  /** Grace period for a transport to finish after the server closes it. */
  closeTimeoutMs: number
  /** How long addToGroup waits for the owning instance to acknowledge. */
  groupAckTimeoutMs: number
  /** How long a server-to-client invocation waits for the client's result. */
  clientResultTimeoutMs: number
}

export interface HubServerOptions {
  hubs: HubDefinition[]
  authenticate: Authenticate
  /** Browser Origin allow-list; same-origin and requests without Origin are always allowed. */
  allowedOrigins?: string[]
  /** Defaults to a private in-memory backplane (single instance). A backplane passed in is not closed by close(). */
  backplane?: Backplane
  basePath?: string
  /** The client's address for a request (behind trusted proxies, the forwarded one); default the socket's peer. */
  clientAddress?: (req: IncomingMessage) => string
  /** Further paths at which a hub answers, path → hub name (`{ '/chat': 'chat' }`), besides basePath/name. */
  aliases?: Record<string, string>
  timeouts?: Partial<Timeouts>
  /** Largest record accepted from a client, in bytes (default 32 KB). */
  maxReceiveMessageSize?: number
  /** Transports offered, in this order (default all three). */
  transports?: TransportName[]
  logger?: Logger
}

export interface HubServer {
  /** Whether a request target (path and query) is a hub's (under basePath or at an alias). */
  owns(rawUrl: string | undefined): boolean
  /** Connections open now, by transport (for /metrics). */
  connectionCounts(): Record<string, number>
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  get(hubName: string): HubHandle
  disconnectSession(sessionId: string): Promise<void>
  /** Closes every connection of one user, on every instance (through the backplane). */
  disconnectUser(userId: number): Promise<void>
  stats(): { connections: number }
  close(): Promise<void>
  /** Resolves once the backplane subscriptions are in place. */
  readonly ready: Promise<void>
}
