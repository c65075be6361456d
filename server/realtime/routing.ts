import type { Connection } from './connection.ts'
import { invocationRecord } from './protocol.ts'
import { SharedRecord } from './shared-record.ts'
import type { Backplane, HubHandle, Logger, Sender } from './types.ts'

/** A hub message on a data channel: origin server, excluded connection ids, the framed record. */
interface Envelope {
  o: string
  x?: string[]
  r: string
}
interface GroupCommand {
  o: string
  id: number
  a: 'add' | 'remove'
  g: string
  c: string
}

interface Subscription {
  count: number
  handler: (message: string) => void
  ready: Promise<void>
}

/**
 * Membership lives in memory on the instance that owns each connection (as in ASP.NET's Redis
 * lifetime manager). A send writes to local members directly and publishes once; other instances
 * deliver to their own members and skip what they published themselves.
 */
export class HubRouter {
  readonly hubName: string
  readonly handle: HubHandle
  private readonly backplane: Backplane
  private readonly serverId: string
  private readonly logger: Logger
  private readonly ackTimeoutMs: number
  private readonly connections = new Map<string, Connection>()
  private readonly users = new Map<number, Set<Connection>>()
  private readonly groups = new Map<string, Set<Connection>>()
  private readonly memberships = new Map<string, Set<string>>()
  private readonly subscriptions = new Map<string, Subscription>()
  private readonly fixed: [string, (message: string) => void][]
  private readonly acks = new Map<
    number,
    { resolve: () => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >()
  private nextAckId = 1

  constructor(init: {
    hubName: string
    backplane: Backplane
    serverId: string
    logger: Logger
    ackTimeoutMs: number
  }) {
    this.hubName = init.hubName
    this.backplane = init.backplane
    this.serverId = init.serverId
    this.logger = init.logger
    this.ackTimeoutMs = init.ackTimeoutMs
    this.fixed = [
      [this.channel('all'), (m) => this.deliver(m, this.connections.values())],
      [this.channel('internal:groups'), (m) => void this.onGroupCommand(m)],
      [this.channel(`internal:ack:${this.serverId}`), (m) => this.onAck(m)],
    ]
    this.handle = this.createHandle()
  }

  async start(): Promise<void> {
    await Promise.all(this.fixed.map(([channel, handler]) => this.backplane.subscribe(channel, handler)))
  }

  async stop(): Promise<void> {
    for (const { reject, timer } of this.acks.values()) {
      clearTimeout(timer)
      reject(new Error('The hub server is shutting down.'))
    }
    this.acks.clear()
    const all = [
      ...this.fixed,
      ...[...this.subscriptions].map(([c, s]) => [c, s.handler] as [string, (m: string) => void]),
    ]
    this.subscriptions.clear()
    await Promise.all(
      all.map(([channel, handler]) => this.backplane.unsubscribe(channel, handler).catch(() => {})),
    )
  }

  /** Makes the connection reachable by id, user and the broadcast channel before its handshake reply goes out. */
  async register(conn: Connection): Promise<void> {
    this.connections.set(conn.id, conn)
    this.memberships.set(conn.id, new Set())
    const waits = [this.acquire(this.channel(`connection:${conn.id}`), (m) => this.deliver(m, [conn]))]
    if (conn.user) {
      const userId = conn.user.userId
      let set = this.users.get(userId)
      if (!set) this.users.set(userId, (set = new Set()))
      set.add(conn)
      waits.push(this.acquire(this.channel(`user:${userId}`), (m) => this.deliver(m, this.users.get(userId))))
    }
    await Promise.all(waits)
  }

  unregister(conn: Connection): void {
    if (this.connections.get(conn.id) !== conn) return
    this.connections.delete(conn.id)
    this.release(this.channel(`connection:${conn.id}`))
    if (conn.user) {
      const set = this.users.get(conn.user.userId)
      set?.delete(conn)
      if (set && !set.size) this.users.delete(conn.user.userId)
      this.release(this.channel(`user:${conn.user.userId}`))
    }
    for (const group of this.memberships.get(conn.id) ?? []) this.leave(conn, group)
    this.memberships.delete(conn.id)
  }

  async addToGroup(conn: Connection, group: string): Promise<void> {
    const mine = this.memberships.get(conn.id)
    if (!mine || this.connections.get(conn.id) !== conn || mine.has(group)) return
    mine.add(group)
    let set = this.groups.get(group)
    if (!set) this.groups.set(group, (set = new Set()))
    set.add(conn)
    await this.acquire(this.channel(`group:${group}`), (m) => this.deliver(m, this.groups.get(group)))
  }

  async removeFromGroup(conn: Connection, group: string): Promise<void> {
    const mine = this.memberships.get(conn.id)
    if (!mine?.delete(group)) return
    this.leave(conn, group)
  }

  private leave(conn: Connection, group: string): void {
    const set = this.groups.get(group)
    set?.delete(conn)
    if (set && !set.size) this.groups.delete(group)
    this.release(this.channel(`group:${group}`))
  }

  private channel(suffix: string): string {
    return `${this.hubName}:${suffix}`
  }

  // Reference-counted so an instance subscribes to a user or group channel only while it has members.
  private acquire(channel: string, handler: (message: string) => void): Promise<void> {
    const existing = this.subscriptions.get(channel)
    if (existing) {
      existing.count++
      return existing.ready
    }
    const ready = this.backplane.subscribe(channel, handler).catch((error: unknown) => {
      this.logger.error({ err: error, channel }, 'backplane subscribe failed')
    })
    this.subscriptions.set(channel, { count: 1, handler, ready })
    return ready
  }

  private release(channel: string): void {
    const sub = this.subscriptions.get(channel)
    if (!sub || --sub.count > 0) return
    this.subscriptions.delete(channel)
    void sub.ready
      .then(() => this.backplane.unsubscribe(channel, sub.handler))
      .catch((error: unknown) => this.logger.warn({ err: error, channel }, 'backplane unsubscribe failed'))
  }

  private deliver(message: string, targets: Iterable<Connection> | undefined): void {
    if (!targets) return
    let envelope: Envelope
    try {
      envelope = JSON.parse(message) as Envelope
    } catch {
      return this.logger.warn({ hub: this.hubName }, 'malformed backplane message')
    }
    if (envelope.o === this.serverId || typeof envelope.r !== 'string') return
    writeTo(targets, envelope.r, envelope.x)
  }

  private sender(channel: string, local: () => Iterable<Connection> | undefined, exclude?: string[]): Sender {
    return {
      send: async (target, ...args) => {
        const record = invocationRecord(target, args)
        writeTo(local() ?? [], record, exclude)
        const envelope: Envelope = { o: this.serverId, r: record }
        if (exclude?.length) envelope.x = exclude
        await this.backplane.publish(this.channel(channel), JSON.stringify(envelope))
      },
    }
  }

  private createHandle(): HubHandle {
    return {
      toAll: () => this.sender('all', () => this.connections.values()),
      allExcept: (ids) => this.sender('all', () => this.connections.values(), [...ids]),
      toUser: (id) => this.sender(`user:${id}`, () => this.users.get(id)),
      toGroup: (name) => this.sender(`group:${name}`, () => this.groups.get(name)),
      groupExcept: (name, ids) => this.sender(`group:${name}`, () => this.groups.get(name), [...ids]),
      toConnection: (id) => {
        const remote = this.sender(`connection:${id}`, () => undefined)
        return {
          // A local connection is written directly; only unknown ids cost a publish.
          send: async (target, ...args) => {
            const conn = this.connections.get(id)
            if (conn) conn.send(invocationRecord(target, args))
            else await remote.send(target, ...args)
          },
        }
      },
      invokeConnection: (connectionId, target, ...args) => {
        const session = this.connections.get(connectionId)?.hooks
        // Client results are not routed between instances (docs/decisions/070-realtime.md).
        if (!session?.invokeClient)
          return Promise.reject(new Error(`Connection '${connectionId}' is not held by this server.`))
        return session.invokeClient(target, args)
      },
      addToGroup: (connectionId, group) => this.groupCommand('add', connectionId, group),
      removeFromGroup: (connectionId, group) => this.groupCommand('remove', connectionId, group),
    }
  }

  private async groupCommand(action: 'add' | 'remove', connectionId: string, group: string): Promise<void> {
    const local = this.connections.get(connectionId)
    if (local) return action === 'add' ? this.addToGroup(local, group) : this.removeFromGroup(local, group)
    const id = this.nextAckId++
    const acked = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(id)
        reject(new Error(`No server acknowledged the group ${action} for connection '${connectionId}'.`))
      }, this.ackTimeoutMs)
      timer.unref()
      this.acks.set(id, { resolve, reject, timer })
    })
    const command: GroupCommand = { o: this.serverId, id, a: action, g: group, c: connectionId }
    try {
      await this.backplane.publish(this.channel('internal:groups'), JSON.stringify(command))
    } catch (error) {
      const pending = this.acks.get(id)
      if (pending) clearTimeout(pending.timer)
      this.acks.delete(id)
      throw error
    }
    await acked
  }

  private async onGroupCommand(message: string): Promise<void> {
    let command: GroupCommand
    try {
      command = JSON.parse(message) as GroupCommand
    } catch {
      return
    }
    if (command.o === this.serverId) return
    const conn = this.connections.get(command.c)
    if (!conn) return
    if (command.a === 'add') await this.addToGroup(conn, command.g)
    else await this.removeFromGroup(conn, command.g)
    await this.backplane
      .publish(this.channel(`internal:ack:${command.o}`), JSON.stringify({ id: command.id }))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'group ack publish failed'))
  }

  private onAck(message: string): void {
    let id: number
    try {
      id = (JSON.parse(message) as { id: number }).id
    } catch {
      return
    }
    const pending = this.acks.get(id)
    if (!pending) return
    clearTimeout(pending.timer)
    this.acks.delete(id)
    pending.resolve()
  }
}

// The record is encoded (and, for WebSockets, framed) once for all targets.
function writeTo(targets: Iterable<Connection>, record: string, exclude: string[] | undefined): void {
  const skip = exclude?.length ? new Set(exclude) : null
  const shared = new SharedRecord(record)
  const now = Date.now()
  for (const conn of targets) if (!skip?.has(conn.id)) conn.sendShared(shared, now)
}
