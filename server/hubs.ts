import type { IncomingMessage } from 'node:http'
import type { Config } from './config.ts'
import type { Logger } from './log.ts'
import { createHubServer, createRedisBackplane, parseCookies, type HubContext, type HubDefinition, type HubServer } from './realtime/index.ts'

/** The part of the identity service the hubs need: a login token in, the caller out. */
export interface HubIdentity {
  authenticate(token: string | null | undefined): Promise<{ userId: number; sessionId: string } | null>
}

/** The server-side API modules use to reach browsers; they never touch sockets. */
export interface Hubs {
  chat: ReturnType<HubServer['get']>
  notifications: ReturnType<HubServer['get']>
}

const SESSION_COOKIE = 'session'
const REVOCATION_SWEEP_MS = Number(process.env.HUB_REVOCATION_SWEEP_MS ?? 10_000)

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

// Chat and notifications (SPEC §7): both need a signed-in user. Messages reach users through
// `toUser`, so every tab and device of a user gets them; chat rooms add groups when chat lands.
function hubDefinitions(tracker: ReturnType<typeof sessionTracker>): HubDefinition[] {
  const common = { requireUser: true, methods: {}, onConnected: tracker.onConnected, onDisconnected: tracker.onDisconnected }
  return [
    { name: 'chat', ...common },
    { name: 'notifications', ...common },
  ]
}

export async function createHubs({ config, log, identity }: { config: Config; log: Logger; identity: HubIdentity }) {
  const backplane = config.redisUrl ? await createRedisBackplane(config.redisUrl, `${config.redisPrefix}hubs:`, { logger: log.child({ module: 'hubs-redis' }) }) : undefined
  const tracker = sessionTracker()
  const allowedOrigins = [...config.allowedOrigins, ...(config.publicUrl ? [new URL(config.publicUrl).origin] : [])]
  const server = createHubServer({
    hubs: hubDefinitions(tracker),
    // Browsers send the session cookie (the web UI) or access_token; other clients a bearer token.
    authenticate: async (req: IncomingMessage, token: string | null) => {
      const fromCookie = parseCookies(req.headers.cookie).get(SESSION_COOKIE)
      const presented = token ?? fromCookie ?? null
      const caller = await identity.authenticate(presented)
      if (!caller) return null
      if (presented) tracker.tokens.set(caller.sessionId, presented)
      return { userId: caller.userId, sessionId: caller.sessionId }
    },
    allowedOrigins,
    backplane,
    logger: log.child({ module: 'hubs' }),
  })
  await server.ready
  const sweep = setInterval(() => void endRevokedSessions(), REVOCATION_SWEEP_MS)
  sweep.unref()
  async function endRevokedSessions() {
    for (const [sessionId, token] of tracker.tokens) {
      if (tracker.open.has(sessionId) && !(await identity.authenticate(token).catch(() => ({ userId: 0, sessionId })))) {
        await server.disconnectSession(sessionId)
      }
    }
  }
  const hubs: Hubs = { chat: server.get('chat'), notifications: server.get('notifications') }
  return {
    server,
    hubs,
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
