import type { IncomingMessage } from 'node:http'
import type { Config } from './config.ts'
import type { Logger } from './log.ts'
import { clientAddress, trustedProxies } from './http/client-address.ts'
import {
  createHubServer,
  createRedisBackplane,
  HubError,
  parseCookies,
  type HubContext,
  type HubDefinition,
  type HubHandle,
} from './realtime/index.ts'

/** The part of the identity service the hubs need: a login token in, the caller out. */
export interface HubIdentity {
  authenticate(token: string | null | undefined): Promise<{ userId: number; sessionId: string } | null>
}

/** What the notifications hub sends to browsers (docs/product.md §7): `countNotify` makes bells reload their unread count. */
export interface NotificationsHubMessages {
  countNotify: [unreadCount: number]
  /** The alert item of docs/product.md §3: id, title, content, isRead, type, projectId. */
  ReceiveNotification: [
    alert: {
      id: number
      title: string
      content: string
      isRead: boolean
      type: string
      projectId: number | null
    },
  ]
  /** To the group `project:{id}` (its client and proposers): the project changed, pages showing it may reload. */
  projectChanged: [projectId: number]
}

/** What the chat hub sends to browsers (decision 150). */
export interface ChatHubMessages {
  /** To the group `room:{id}` (its members' open room pages): a message was stored. */
  ReceiveMessage: [message: import('./modules/chat/contract.ts').ChatMessage]
  /** To the group `room:{id}`, except the typist's connection: a member is typing. */
  typing: [event: { roomId: number; userId: number }]
  /** To the group `room:{id}`: a member has read up to a message (read receipts). */
  read: [event: { roomId: number; userId: number; lastReadMessageId: number }]
  /** To each member (every tab and device): how many of their rooms now have unread messages. */
  countChat: [roomsWithUnread: number]
}

/** A hub whose messages are checked by the compiler: `send('countNotify', 3)`, never a misspelt target. */
export interface TypedSender<M> {
  send<K extends keyof M & string>(target: K, ...args: M[K] extends unknown[] ? M[K] : never): Promise<void>
}
export interface TypedHub<M> extends Pick<HubHandle, 'addToGroup' | 'removeFromGroup' | 'invokeConnection'> {
  toAll(): TypedSender<M>
  toUser(id: number): TypedSender<M>
  toGroup(name: string): TypedSender<M>
  toConnection(id: string): TypedSender<M>
  allExcept(ids: string[]): TypedSender<M>
  groupExcept(name: string, ids: string[]): TypedSender<M>
}

/** The server-side API modules use to reach browsers; they never touch sockets. */
export interface Hubs {
  chat: TypedHub<ChatHubMessages>
  notifications: TypedHub<NotificationsHubMessages>
  /** Ends a user's connections on every instance at once (an admin suspended or deleted them). */
  disconnectUser(userId: number): Promise<void>
}

const SESSION_COOKIE = 'session'
const TYPING_EVERY_MS = 2000

// Sessions with open connections on this instance and the token each came with, so a session
// revoked anywhere (logout, password change, suspension) is found by re-checking its token.
function sessionTracker() {
  const open = new Map<string, number>()
  const tokens = new Map<string, string>()
  return {
    open,
    tokens,
    onConnected(ctx: HubContext) {
      const id = ctx.user?.sessionId
      if (id) open.set(id, (open.get(id) ?? 0) + 1)
    },
    onDisconnected(ctx: HubContext) {
      const id = ctx.user?.sessionId
      if (!id) return
      const n = (open.get(id) ?? 1) - 1
      if (n > 0) return void open.set(id, n)
      open.delete(id)
      tokens.delete(id)
    },
  }
}

export type HubName = keyof Hubs
/** Decides whether a user may listen to a group: `kind` is the part before the first ':' (`room:12` → 'room', '12'). */
export type GroupCheck = (
  user: { userId: number; sessionId: string },
  id: string,
) => boolean | Promise<boolean>

// Groups a page may join from the browser (JoinGroup/LeaveGroup), by kind. A module registers the
// kinds it owns with the check that guards them (chat: members of the room; projects: its parties).
// Anything not registered is refused, so no one can listen to a group they have no right to.
function groupRegistry() {
  const checks = new Map<string, GroupCheck>()
  return {
    allow(hub: HubName, kind: string, check: GroupCheck) {
      checks.set(`${hub}/${kind}`, check)
    },
    async permitted(hub: string, ctx: HubContext, group: unknown): Promise<string> {
      const name = typeof group === 'string' ? group : ''
      const at = name.indexOf(':')
      const check = at > 0 && name.length <= 200 ? checks.get(`${hub}/${name.slice(0, at)}`) : undefined
      if (!check || !ctx.user || !(await check(ctx.user, name.slice(at + 1))))
        throw new HubError('You cannot join this group.')
      return name
    },
  }
}

// Chat and notifications (docs/product.md §7): both need a signed-in user. Messages reach users through
// `toUser`, so every tab and device of a user gets them; pages join groups (a chat room, a
// project) with JoinGroup, which the web client repeats after every reconnect.
function hubDefinitions(
  tracker: ReturnType<typeof sessionTracker>,
  groups: ReturnType<typeof groupRegistry>,
): HubDefinition[] {
  const joined = (ctx: HubContext) => {
    let set = ctx.items.get('joined') as Set<string> | undefined
    if (!set) ctx.items.set('joined', (set = new Set()))
    return set
  }
  const methods = (hub: HubName) => ({
    joinGroup: async (ctx: HubContext, group: unknown) => {
      const name = await groups.permitted(hub, ctx, group)
      await ctx.groups.add(name)
      joined(ctx).add(name)
    },
    leaveGroup: async (ctx: HubContext, group: unknown) => {
      if (typeof group !== 'string') return
      joined(ctx).delete(group)
      await ctx.groups.remove(group)
    },
  })
  // Typing(roomId): relayed to the room's other pages, only from a connection that joined the
  // room (so passed its membership check), at most once per TYPING_EVERY_MS per connection.
  const typing = async (ctx: HubContext, roomId: unknown) => {
    const group = `room:${Number(roomId)}`
    if (!Number.isInteger(roomId) || !joined(ctx).has(group)) throw new HubError('Join the room first.')
    const now = Date.now()
    if (now - ((ctx.items.get('typedAt') as number | undefined) ?? 0) < TYPING_EVERY_MS) return
    ctx.items.set('typedAt', now)
    await ctx.hub.groupExcept(group, [ctx.connectionId]).send('typing', { roomId, userId: ctx.user!.userId })
  }
  const common = {
    requireUser: true,
    onConnected: tracker.onConnected,
    onDisconnected: tracker.onDisconnected,
  }
  return [
    { name: 'chat', methods: { ...methods('chat'), typing }, ...common },
    { name: 'notifications', methods: methods('notifications'), ...common },
  ]
}

export async function createHubs({
  config,
  log,
  identity,
}: {
  config: Config
  log: Logger
  identity: HubIdentity
}) {
  const backplane = config.redisUrl
    ? await createRedisBackplane(config.redisUrl, `${config.redisPrefix}hubs:`, {
        logger: log.child({ module: 'hubs-redis' }),
      })
    : undefined
  const tracker = sessionTracker()
  const groups = groupRegistry()
  const proxies = trustedProxies(config.trustProxy)
  const allowedOrigins = [
    ...config.allowedOrigins,
    ...(config.publicUrl ? [new URL(config.publicUrl).origin] : []),
  ]
  const server = createHubServer({
    hubs: hubDefinitions(tracker, groups),
    // Browsers send the session cookie (the web UI) or access_token; other clients a bearer token.
    authenticate: async (req: IncomingMessage, token: string | null) => {
      const fromCookie = parseCookies(req.headers.cookie).get(SESSION_COOKIE)
      const presented = token ?? fromCookie ?? null
      const caller = await identity.authenticate(presented)
      // A SuperAdmin's setup-only session (decision 260) joins no hub: it may only set up its app.
      if (!caller || ('secondFactorSetup' in caller && caller.secondFactorSetup)) return null
      if (presented) tracker.tokens.set(caller.sessionId, presented)
      return { userId: caller.userId, sessionId: caller.sessionId }
    },
    allowedOrigins,
    clientAddress: (req) => clientAddress(req, proxies),
    // docs/product.md §7 names the hubs `chat` and `notificationHub`: a client written to the spec connects there.
    aliases: { '/chat': 'chat', '/notificationHub': 'notifications' },
    backplane,
    logger: log.child({ module: 'hubs' }),
  })
  await server.ready
  const sweep = setInterval(() => void endRevokedSessions(), config.hubRevocationSweepMs)
  sweep.unref()
  async function endRevokedSessions() {
    for (const [sessionId, token] of tracker.tokens) {
      if (
        tracker.open.has(sessionId) &&
        !(await identity.authenticate(token).catch(() => ({ userId: 0, sessionId })))
      ) {
        await server.disconnectSession(sessionId)
      }
    }
  }
  const hubs: Hubs = {
    chat: server.get('chat'),
    notifications: server.get('notifications'),
    disconnectUser: (userId) => server.disconnectUser(userId),
  }
  return {
    server,
    hubs,
    /** Lets browsers join groups of one kind on one hub, for users the check accepts. */
    allowGroups: groups.allow,
    /** The Redis pub/sub the hubs fan out through (none without REDIS_URL); the cache bus shares it. */
    backplane,
    /** Sessions with a connection on this instance (for revocation sweeps). */
    openSessions: () => [...tracker.open.keys()],
    /** Closes now, on every instance, the connections of sessions that have ended. */
    endRevokedSessions,
    async close() {
      clearInterval(sweep)
      await server.close()
      await backplane?.close()
    },
  }
}

export type HubsRuntime = Awaited<ReturnType<typeof createHubs>>
