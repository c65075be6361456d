// Runs the official @microsoft/signalr client (Node) against the hub server over every transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Subject } from '@microsoft/signalr'
import {
  TRANSPORTS,
  bigPayload,
  deferred,
  makeClient,
  signalR,
  sleep,
  startHarness,
  usedTransport,
  waitFor,
} from '../../tests/support/realtime.ts'
import type { Harness, TransportChoice } from '../../tests/support/realtime.ts'

describe.each(TRANSPORTS)('official client over %s', (transport: TransportChoice) => {
  let h: Harness
  const clients: signalR.HubConnection[] = []

  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()))
    await h.close()
  })

  async function connect(options: Parameters<typeof makeClient>[2] = {}) {
    const client = makeClient(h.url, transport, options)
    clients.push(client.connection)
    await client.connection.start()
    return client
  }

  it('negotiates, uses the transport and exposes the public connection id', async () => {
    const { connection, logs } = await connect()
    const expected = transport === 'auto' ? 'WebSockets' : transport
    expect(usedTransport(logs)).toBe(expected)
    const me = await connection.invoke<{ connectionId: string }>('whoAmI')
    expect(me.connectionId).toBe(connection.connectionId)
    expect(connection.connectionId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(h.state.connected).toContain(connection.connectionId)
  })

  it('returns results including 0, false, "", null and void', async () => {
    const { connection } = await connect()
    expect(await connection.invoke('zero')).toBe(0)
    expect(await connection.invoke('false')).toBe(false)
    expect(await connection.invoke('empty')).toBe('')
    expect(await connection.invoke('nothing')).toBeNull()
    expect(await connection.invoke('void')).toBeUndefined()
    expect(await connection.invoke('add', 2, 3)).toBe(5)
    expect(await connection.invoke('echo', { a: [1, 'two', null] })).toEqual({ a: [1, 'two', null] })
  })

  it('matches method names case-insensitively and reports unknown ones', async () => {
    const { connection } = await connect()
    expect(await connection.invoke('ECHO', 'x')).toBe('x')
    expect(await connection.invoke('whoami')).toHaveProperty('connectionId', connection.connectionId)
    await expect(connection.invoke('nope')).rejects.toThrow("Unknown hub method 'nope'")
  })

  it('reports method errors without leaking details, and HubError messages on purpose', async () => {
    const { connection } = await connect()
    const plain = await connection.invoke('fail').catch((e: Error) => e.message)
    expect(plain).toBe("An unexpected error occurred invoking 'fail' on the server.")
    await expect(connection.invoke('failVisibly')).rejects.toThrow(
      "An unexpected error occurred invoking 'failVisibly' on the server. HubException: Project not found",
    )
  })

  it('send() gets no Completion, and the connection stays usable', async () => {
    const { connection, closed } = await connect()
    const marker = `send-${transport}-${Math.random()}`
    await connection.send('record', marker)
    await connection.send('unknownTarget', 1)
    await waitFor(() => h.state.received.includes(marker), 2000, 'send to arrive')
    // A Completion for a non-blocking send would make the client drop the connection.
    expect(await connection.invoke('echo', 1)).toBe(1)
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(150).then(() => 'open')])
    expect(outcome).toBe('open')
    expect(connection.state).toBe(signalR.HubConnectionState.Connected)
  })

  it('delivers server→client messages through toUser, toGroup, toAll, toConnection and the except forms', async () => {
    const { connection } = await connect({ token: 'user-7-s7' })
    const other = await connect({ token: 'user-8-s8' })
    const got: string[] = []
    const otherGot: string[] = []
    connection.on('note', (text: string) => got.push(text))
    other.connection.on('NOTE', (text: string) => otherGot.push(text))
    await connection.invoke('join', 'project-1')
    const chat = h.hub.get('chat')
    await chat.toUser(7).send('note', 'user')
    await chat.toGroup('project-1').send('Note', 'group')
    await chat.toConnection(connection.connectionId!).send('note', 'connection')
    await chat.allExcept([connection.connectionId!]).send('note', 'all-but-me')
    await chat.groupExcept('project-1', [connection.connectionId!]).send('note', 'group-but-me')
    await chat.toAll().send('note', 'all')
    await waitFor(() => got.includes('all') && otherGot.includes('all'), 3000, 'broadcast')
    expect(got).toEqual(['user', 'group', 'connection', 'all'])
    expect(otherGot).toEqual(['all-but-me', 'all'])
    await connection.invoke('leave', 'project-1')
    await chat.toGroup('project-1').send('note', 'after-leave')
    await chat.toConnection(connection.connectionId!).send('note', 'last')
    await waitFor(() => got.includes('last'), 3000, 'last message')
    expect(got).not.toContain('after-leave')
  })

  it('server-to-client invocations wait for the client result (0, false and "" too), its error or a missing handler', async () => {
    const { connection } = await connect()
    connection.on('double', (n: number) => n * 2)
    connection.on('falsy', (kind: string) => (kind === 'zero' ? 0 : kind === 'false' ? false : ''))
    connection.on('refuse', () => {
      throw new Error('not on this device')
    })
    expect(await connection.invoke('askCaller', 'double', 21)).toBe(42)
    expect(await connection.invoke('askCaller', 'falsy', 'zero')).toBe(0)
    expect(await connection.invoke('askCaller', 'falsy', 'false')).toBe(false)
    expect(await connection.invoke('askCaller', 'falsy', 'empty')).toBe('')
    await expect(connection.invoke('askCaller', 'refuse')).rejects.toThrow(
      'HubException: Error: not on this device',
    )
    await expect(connection.invoke('askCaller', 'noHandler')).rejects.toThrow(
      "HubException: Client didn't provide a result.",
    )
    // From outside a hub method (a module), through the hub handle.
    expect(await h.hub.get('chat').invokeConnection(connection.connectionId!, 'double', 4)).toBe(8)
    await expect(h.hub.get('chat').invokeConnection('no-such-connection', 'double', 4)).rejects.toThrow(
      'is not held by this server',
    )
    expect(connection.state).toBe(signalR.HubConnectionState.Connected)
  })

  it('streams items in order, then completes; undefined items arrive as null; errors end the stream', async () => {
    const { connection } = await connect()
    const collect = (name: string, ...args: unknown[]) =>
      new Promise<{ items: unknown[]; error?: string }>((resolve) => {
        const items: unknown[] = []
        connection.stream(name, ...args).subscribe({
          next: (item) => items.push(item),
          complete: () => resolve({ items }),
          error: (e) => resolve({ items, error: String(e) }),
        })
      })
    expect(await collect('counter', 50, 0)).toEqual({ items: Array.from({ length: 50 }, (_, i) => i) })
    expect(await collect('undefinedItems')).toEqual({ items: [null, 0] })
    const failed = await collect('failingStream')
    expect(failed.items).toEqual([1])
    expect(failed.error).toContain('An error occurred on the server while streaming results.')
    expect(failed.error).not.toContain('stream broke')
    const mismatch = await connection.invoke('counter', 1, 0).catch((e: Error) => e.message)
    expect(mismatch).toContain("streaming 'counter' method with a non-streaming invocation")
  })

  it('cancels a stream when the subscription is disposed; the server stops producing', async () => {
    const { connection } = await connect()
    h.state.streamStopped = deferred<void>()
    const items: number[] = []
    const subscription = connection
      .stream<number>('endless')
      .subscribe({ next: (i) => void items.push(i), complete() {}, error() {} })
    await waitFor(() => items.length >= 3, 3000, 'stream items')
    subscription.dispose()
    await Promise.race([
      h.state.streamStopped.promise,
      sleep(3000).then(() => Promise.reject(new Error('server kept streaming'))),
    ])
    const producedAtStop = h.state.produced
    await sleep(100)
    expect(h.state.produced).toBe(producedAtStop)
    expect(await connection.invoke('echo', 'still fine')).toBe('still fine')
  })

  it('accepts upload streams', async () => {
    const { connection } = await connect()
    const subject = new Subject<number>()
    const total = connection.invoke('sum', subject)
    for (const n of [1, 2, 3, 4]) subject.next(n)
    subject.complete()
    expect(await total).toBe(10)
  })

  it('carries 1 MB payloads intact in both result and server-sent invocation', async () => {
    const { connection } = await connect()
    const expected = bigPayload(1_000_000)
    expect(await connection.invoke('big', 1_000_000)).toBe(expected)
    const pushed = new Promise<string>((resolve) => connection.on('big', resolve))
    await connection.invoke('pushBig', 1_000_000)
    expect(await pushed).toBe(expected)
  })

  it('closes the connection with an error when a client message exceeds 32 KB', async () => {
    const { connection, closed } = await connect()
    await connection.invoke('echo', 'x'.repeat(40_000)).catch(() => undefined)
    const error = await closed
    expect(String(error)).toContain('Connection closed with an error.')
    expect(String(error)).toContain('maximum message size')
  })

  it('runs onDisconnected exactly once after stop()', async () => {
    const { connection } = await connect()
    const id = connection.connectionId!
    await connection.stop()
    await waitFor(() => h.state.disconnected.includes(id), 3000, 'onDisconnected')
    await sleep(200)
    expect(h.state.disconnected.filter((x) => x === id)).toHaveLength(1)
    expect(h.state.connected.filter((x) => x === id)).toHaveLength(1)
  })

  it('accepts the token for a user-only hub and passes the user to methods', async () => {
    const client = makeClient(`${h.origin}/hubs/secure`, transport, { token: 'user-42-abc' })
    clients.push(client.connection)
    await client.connection.start()
    const me = await client.connection.invoke<{ user: unknown }>('whoAmI')
    expect(me.user).toEqual({ userId: 42, sessionId: 'abc' })
    const viaQuery = h.auth.calls.filter((c) => c.token === 'user-42-abc' && c.url?.includes('access_token='))
    const viaHeader = h.auth.calls.filter(
      (c) => c.token === 'user-42-abc' && !c.url?.includes('access_token='),
    )
    expect(viaHeader.length).toBeGreaterThan(0)
    // The Node client authenticates its EventSource with the query parameter.
    if (transport === 'ServerSentEvents') expect(viaQuery.every((c) => c.method === 'GET')).toBe(true)
    if (transport === 'ServerSentEvents') expect(viaQuery.length).toBeGreaterThan(0)
  })

  it('disconnectSession closes the connection for good', async () => {
    const client = makeClient(h.url, transport, { token: 'user-9-revoked', reconnectDelays: [0] })
    clients.push(client.connection)
    await client.connection.start()
    let reconnecting = false
    client.connection.onreconnecting(() => (reconnecting = true))
    await h.hub.disconnectSession('revoked')
    const error = await client.closed
    expect(String(error)).toContain('Server returned an error on close: The session has ended.')
    expect(reconnecting).toBe(false)
  })

  it('a server restart sends Close{allowReconnect} and the client reconnects with a new connection id', async () => {
    const client = makeClient(h.url, transport, { reconnectDelays: [0, 50, 100, 200, 400, 800] })
    clients.push(client.connection)
    await client.connection.start()
    const firstId = client.connection.connectionId
    const reconnecting = deferred<Error | undefined>()
    const reconnected = deferred<string | undefined>()
    client.connection.onreconnecting((e) => reconnecting.resolve(e))
    client.connection.onreconnected((id) => reconnected.resolve(id))
    const started = Date.now()
    await h.restartHub()
    expect(Date.now() - started).toBeLessThan(2000)
    // Close{allowReconnect} without an error: a restart is not a failure, and the client reports none.
    expect(await reconnecting.promise).toBeUndefined()
    const newId = await reconnected.promise
    expect(newId).toBeTruthy()
    expect(newId).not.toBe(firstId)
    expect(await client.connection.invoke('echo', 'after restart')).toBe('after restart')
  })

  it('onConnected runs before start() resolves; what it sends arrives after the handshake', async () => {
    const client = makeClient(`${h.origin}/hubs/greeter`, transport)
    clients.push(client.connection)
    const welcome = new Promise<string>((resolve) => client.connection.on('welcome', resolve))
    await client.connection.start()
    expect(await welcome).toBe(client.connection.connectionId)
    const lobby = new Promise<string>((resolve) => client.connection.on('lobby', resolve))
    await h.hub.get('greeter').toGroup('lobby').send('lobby', 'hello')
    expect(await lobby).toBe('hello')
  })

  it('a failing onConnected becomes a handshake error, and onDisconnected does not run', async () => {
    const client = makeClient(`${h.origin}/hubs/broken`, transport)
    await expect(client.connection.start()).rejects.toThrow(
      'Server returned handshake error: An unexpected error occurred during connection handshake.',
    )
    await sleep(50)
    expect(h.state.disconnected).not.toContain('broken')
  })

  it('refuses a cross-origin browser request that is not on the allow-list', async () => {
    const client = makeClient(h.url, transport, { headers: { Origin: 'http://evil.example' } })
    await expect(client.connection.start()).rejects.toThrow(/403|Origin not allowed/)
  })
})

describe('client results that never come', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ timeouts: { clientResultTimeoutMs: 1000 } })
  })
  afterAll(async () => {
    await h.close()
  })

  it('reject after the timeout, or as soon as the connection ends', async () => {
    const { connection } = makeClient(h.url, 'WebSockets')
    await connection.start()
    connection.on('slow', () => new Promise(() => {}))
    const started = Date.now()
    await expect(h.hub.get('chat').invokeConnection(connection.connectionId!, 'slow')).rejects.toThrow(
      "The client did not answer 'slow' within 1000 ms.",
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(990)
    const waiting = h.hub.get('chat').invokeConnection(connection.connectionId!, 'slow')
    const rejected = expect(waiting).rejects.toThrow('The connection was closed before the client answered.')
    await connection.stop()
    await rejected
  })
})
