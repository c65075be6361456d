// Two hub servers (as two processes would be) share Redis pub/sub; messages sent through one reach clients of the other.
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRedisBackplane } from './index.ts'
import type { RedisBackplane } from './index.ts'
import { makeClient, sleep, startHarness, waitFor } from '../../tests/support/realtime.ts'
import type { Harness } from '../../tests/support/realtime.ts'

const REDIS_URL = 'redis://127.0.0.1:6379'

/** Sends `tick-n` through `send` until the client has seen one sent after this call; returns that n. */
async function sendUntilReceived(
  send: (n: number) => Promise<void>,
  seen: number[],
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (let n = 1_000_000 + Math.floor(Math.random() * 1000) * 1000; ; n++) {
    await send(n).catch(() => undefined)
    await sleep(100)
    const hit = seen.find((s) => s >= 1_000_000)
    if (hit !== undefined) return hit
    if (Date.now() > deadline) throw new Error('delivery did not resume')
  }
}

describe('Redis backplane across two servers', () => {
  const prefix = `workneer-test-${randomUUID()}:`
  let bpA: RedisBackplane
  let bpB: RedisBackplane
  let a: Harness
  let b: Harness
  let admin: Redis

  beforeAll(async () => {
    bpA = await createRedisBackplane(REDIS_URL, prefix)
    bpB = await createRedisBackplane(REDIS_URL, prefix)
    a = await startHarness({ backplane: bpA, timeouts: { groupAckTimeoutMs: 300 } })
    b = await startHarness({ backplane: bpB, timeouts: { groupAckTimeoutMs: 300 } })
    admin = new Redis(REDIS_URL)
  })
  afterAll(async () => {
    await Promise.all([a.close(), b.close()])
    await Promise.all([bpA.close(), bpB.close()])
    admin.disconnect()
  })

  it('toUser, toGroup, toAll, toConnection and except forms sent on A reach a client on B', async () => {
    const client = makeClient(b.url, 'WebSockets', { token: 'user-7-x' })
    const bystander = makeClient(b.url, 'LongPolling', { token: 'user-8-y' })
    await Promise.all([client.connection.start(), bystander.connection.start()])
    const got: string[] = []
    const other: string[] = []
    client.connection.on('note', (t: string) => got.push(t))
    bystander.connection.on('note', (t: string) => other.push(t))
    await client.connection.invoke('join', 'room-1')
    const id = client.connection.connectionId!
    const chat = a.hub.get('chat')
    await chat.toUser(7).send('note', 'user')
    await chat.toGroup('room-1').send('note', 'group')
    await chat.toConnection(id).send('note', 'connection')
    await chat.allExcept([id]).send('note', 'all-but-7')
    await chat.groupExcept('room-1', [id]).send('note', 'group-but-7')
    await chat.toAll().send('note', 'all')
    await waitFor(() => got.includes('all') && other.includes('all'), 3000, 'cross-server delivery')
    expect(got).toEqual(['user', 'group', 'connection', 'all'])
    expect(other).toEqual(['all-but-7', 'all'])

    // Group membership changed from A for a connection that lives on B, acknowledged by B.
    await chat.addToGroup(id, 'room-2')
    await chat.toGroup('room-2').send('note', 'added-remotely')
    await chat.removeFromGroup(id, 'room-2')
    await chat.toGroup('room-2').send('note', 'removed-remotely')
    await chat.toConnection(id).send('note', 'end')
    await waitFor(() => got.includes('end'), 3000, 'end marker')
    expect(got.slice(4)).toEqual(['added-remotely', 'end'])
    await expect(chat.addToGroup('no-such-connection', 'room-2')).rejects.toThrow('No server acknowledged')

    await Promise.all([client.connection.stop(), bystander.connection.stop()])
  })

  it('disconnectSession on A closes the session’s connection on B', async () => {
    const client = makeClient(b.url, 'ServerSentEvents', { token: 'user-9-gone' })
    await client.connection.start()
    await a.hub.disconnectSession('gone')
    expect(String(await client.closed)).toContain('The session has ended.')
  })

  it('disconnectUser on A closes every connection of that user on B, and no one else’s', async () => {
    const tab = makeClient(b.url, 'WebSockets', { token: 'user-11-tab' })
    const phone = makeClient(b.url, 'LongPolling', { token: 'user-11-phone' })
    const other = makeClient(b.url, 'WebSockets', { token: 'user-12-stays' })
    await Promise.all([tab.connection.start(), phone.connection.start(), other.connection.start()])
    await a.hub.disconnectUser(11)
    expect(String(await tab.closed)).toContain('The session has ended.')
    expect(String(await phone.closed)).toContain('The session has ended.')
    expect(other.connection.state).toBe('Connected')
    await other.connection.stop()
  })

  it('a different prefix is a different deployment', async () => {
    const other = await createRedisBackplane(REDIS_URL, `workneer-test-${randomUUID()}:`)
    const c = await startHarness({ backplane: other })
    try {
      const client = makeClient(c.url, 'WebSockets', { token: 'user-7-z' })
      await client.connection.start()
      const got: string[] = []
      client.connection.on('note', (t: string) => got.push(t))
      await a.hub.get('chat').toUser(7).send('note', 'leak?')
      await c.hub.get('chat').toUser(7).send('note', 'own')
      await waitFor(() => got.includes('own'), 2000, 'own message')
      await sleep(100)
      expect(got).toEqual(['own'])
      await client.connection.stop()
    } finally {
      await c.close()
      await other.close()
    }
  })

  it('delivery resumes after the subscriber connection is killed', async () => {
    const client = makeClient(b.url, 'WebSockets', { token: 'user-7-k' })
    await client.connection.start()
    const seen: number[] = []
    client.connection.on('tick', (n: number) => seen.push(n))
    const chat = a.hub.get('chat')
    await chat.toUser(7).send('tick', 1)
    await waitFor(() => seen.includes(1), 2000, 'first tick')

    const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string
    const line = list.split('\n').find((l) => l.includes(` name=${bpB.subscriberName} `))
    expect(line).toBeTruthy()
    const clientId = /^id=(\d+)/.exec(line!)![1]
    expect(await admin.call('CLIENT', 'KILL', 'ID', clientId)).toBe(1)

    await sendUntilReceived((n) => chat.toUser(7).send('tick', n), seen)
    // The group subscription came back too, not only the user channel.
    await client.connection.invoke('join', 'after-kill')
    const before = seen.length
    await chat.toGroup('after-kill').send('tick', 2)
    await waitFor(() => seen.length > before, 3000, 'group delivery after kill')
    await client.connection.stop()
  })
})

describe('Redis backplane through a real Redis restart', () => {
  let port = 0
  let redis: ChildProcess | null = null
  let bpA: RedisBackplane
  let bpB: RedisBackplane
  let a: Harness
  let b: Harness

  async function startRedis(): Promise<void> {
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    const probe = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      retryStrategy: () => 50,
      maxRetriesPerRequest: null,
    })
    probe.on('error', () => {})
    await probe.connect().catch(() => undefined)
    await waitFor(() => probe.status === 'ready', 5000, 'redis-server to start')
    probe.disconnect()
  }

  beforeAll(async () => {
    port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as AddressInfo
        s.close(() => resolve(p))
      })
    })
    await startRedis()
    const url = `redis://127.0.0.1:${port}`
    bpA = await createRedisBackplane(url, 'restart-test')
    bpB = await createRedisBackplane(url, 'restart-test')
    a = await startHarness({ backplane: bpA })
    b = await startHarness({ backplane: bpB })
  })
  afterAll(async () => {
    await Promise.all([a.close(), b.close()])
    await Promise.all([bpA.close(), bpB.close()])
    redis?.kill('SIGKILL')
  })

  it('sends fail fast while Redis is down, local delivery goes on, and cross-server delivery resumes after the restart', async () => {
    const remote = makeClient(b.url, 'ServerSentEvents', { token: 'user-7-r' })
    const local = makeClient(a.url, 'WebSockets', { token: 'user-7-l' })
    await Promise.all([remote.connection.start(), local.connection.start()])
    const seen: number[] = []
    const seenLocally: number[] = []
    remote.connection.on('tick', (n: number) => seen.push(n))
    local.connection.on('tick', (n: number) => seenLocally.push(n))
    const chat = a.hub.get('chat')
    await chat.toUser(7).send('tick', 1)
    await waitFor(() => seen.includes(1) && seenLocally.includes(1), 2000, 'first tick')

    const stopped = new Promise((resolve) => redis!.once('exit', resolve))
    redis!.kill('SIGKILL')
    await stopped
    let failure: unknown = null
    for (const deadline = Date.now() + 3000; !failure && Date.now() < deadline; await sleep(20)) {
      failure = await chat
        .toUser(7)
        .send('tick', 2)
        .then(
          () => null,
          (e: unknown) => e,
        )
    }
    expect(failure).toBeInstanceOf(Error)
    await waitFor(() => seenLocally.includes(2), 2000, 'local delivery during the outage')

    await startRedis()
    await sendUntilReceived((n) => chat.toUser(7).send('tick', n), seen)
    expect(remote.connection.state).toBe('Connected')
    await Promise.all([remote.connection.stop(), local.connection.stop()])
  })
})
