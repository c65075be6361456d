// The browser's connection manager, run in Node against the real hub server: state changes,
// handlers, groups joined before the start, and rejoined after the transport drops.
import http from 'node:http'
import type { Duplex } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHubServer, HubError, type HubContext, type HubServer } from '#server/realtime/index.ts'
import {
  HubManager,
  classifyRealtimeError,
  createRealtimeLogger,
  type RealtimeState,
} from './realtime.client'

const waitFor = async (check: () => boolean, what: string, ms = 5000) => {
  for (const deadline = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
  }
}

describe('HubManager', () => {
  let hubs: HubServer
  let server: http.Server
  let base = ''
  const sockets = new Set<Duplex>()

  beforeAll(async () => {
    hubs = createHubServer({
      hubs: [
        {
          name: 'chat',
          requireUser: true,
          methods: {
            joinGroup: (ctx: HubContext, group: string) => {
              if (!group.startsWith('room:')) throw new HubError('You cannot join this group.')
              return ctx.groups.add(group)
            },
            leaveGroup: (ctx: HubContext, group: string) => ctx.groups.remove(group),
          },
        },
      ],
      authenticate: async () => ({ userId: 1, sessionId: 's1' }),
    })
    server = http.createServer((req, res) => void (hubs.handleRequest(req, res) || res.writeHead(404).end()))
    server.on('upgrade', (req, socket, head) => {
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
      if (!hubs.handleUpgrade(req, socket, head)) socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/hubs`
  })
  afterAll(async () => {
    await hubs.close()
    await new Promise((r) => server.close(r))
  })

  it('connects, delivers to handlers, and rejoins its groups after the connection drops', async () => {
    const manager = new HubManager('chat', { baseUrl: base, logger: createRealtimeLogger(true) })
    const states: RealtimeState[] = []
    manager.subscribe((s) => states.push(s))
    const got: unknown[] = []
    manager.on('note', (v) => got.push(v))
    const leave = manager.join('room:1')
    await manager.start()
    expect(manager.state).toBe('connected')
    const chat = hubs.get('chat')
    await waitFor(
      () => (void chat.toGroup('room:1').send('note', 'first'), got.includes('first')),
      'first group message',
    )

    // The socket is cut: the client reconnects (new connection on the server) and joins again.
    for (const s of sockets) s.destroy()
    await waitFor(() => states.includes('connecting') && manager.state === 'connected', 'reconnect')
    await waitFor(
      () => (void chat.toGroup('room:1').send('note', 'second'), got.includes('second')),
      'group message after the reconnect',
    )

    leave()
    await new Promise((r) => setTimeout(r, 200))
    await chat.toGroup('room:1').send('note', 'after leaving')
    await new Promise((r) => setTimeout(r, 200))
    expect(got).not.toContain('after leaving')
    await manager.stop()
    expect(manager.state).toBe('disconnected')
    expect(states).toEqual(['connecting', 'connected', 'connecting', 'connected', 'disconnected'])
  })

  it('classifies the failures docs/product.md §8 names', () => {
    expect(
      classifyRealtimeError(new Error('Server timeout elapsed without receiving a message from the server.')),
    ).toBe('server-timeout')
    expect(classifyRealtimeError(new Error('Server returned handshake error: Handshake was canceled.'))).toBe(
      'handshake',
    )
    expect(
      classifyRealtimeError(
        Object.assign(new Error('Failed to complete negotiation with the server: Error: Not Found'), {
          name: 'FailedToNegotiateWithServerError',
        }),
      ),
    ).toBe('negotiate')
    expect(
      classifyRealtimeError(
        new Error("Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'"),
      ),
    ).toBe('unauthorized')
    expect(
      classifyRealtimeError(
        new Error('Unable to connect to the server with any of the available transports.'),
      ),
    ).toBe('unsupported-transport')
    expect(
      classifyRealtimeError(new Error('Server returned an error on close: The session has ended.')),
    ).toBe('server-close')
  })
})
