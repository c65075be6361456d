// Two real Workneer server processes (tests/integration/hub-instance.ts around startServer) share one
// fresh PostgreSQL database and Redis. Official @microsoft/signalr clients sign in through the
// identity API and connect to instance B (and A); messages are sent through instance A's hub API.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { randomBytes } from 'node:crypto'
import * as signalR from '@microsoft/signalr'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from './databases.ts'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { freePort } from '../support/server-process.ts'

const root = path.resolve(import.meta.dirname, '../..')
const PASSWORD = 'girders and trusses 42'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function waitFor<T>(
  check: () => T | undefined | null | false,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

interface Instance {
  name: string
  url: string
  /** Runs a harness command on the instance; rejects with the instance's error text. */
  command(c: Record<string, unknown>): Promise<unknown>
  output: () => string
  stop(): Promise<void>
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, 'tests/integration/hub-instance.ts')],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        HOST: '127.0.0.1',
        PORT: '0',
        ...env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let log = ''
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 1
  const ready = new Promise<number>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      log += `${line}\n`
      if (!line.includes('"harness":true')) return
      const message = JSON.parse(line) as {
        ready?: boolean
        port?: number
        id?: number
        ok?: boolean
        result?: unknown
        error?: string
      }
      if (message.ready) return resolve(message.port!)
      const waiter = pending.get(message.id!)
      pending.delete(message.id!)
      if (message.ok) waiter?.resolve(message.result)
      else waiter?.reject(new Error(message.error))
    })
    child.stderr!.on('data', (d) => (log += d))
    child.once('exit', (code) => reject(new Error(`instance ${name} exited with ${code}:\n${log}`)))
  })
  const port = await Promise.race([
    ready,
    sleep(60_000).then(() => Promise.reject(new Error(`instance ${name} did not start:\n${log}`))),
  ])
  const exited = new Promise((r) => child.once('exit', r))
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    command(c) {
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        child.stdin!.write(`${JSON.stringify({ id, ...c })}\n`)
      })
    },
    output: () => log,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await exited
    },
  }
}

interface TestUser {
  id: number
  email: string
  token: string
}

async function call(base: string, method: string, apiPath: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const response = await fetch(`${base}/api/v1/${apiPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : undefined }
}

/** Signs up through A, follows the verification link from the real mail, and logs in (on `loginAt`). */
async function createUser(
  smtp: Awaited<ReturnType<typeof startSmtpServer>>,
  a: Instance,
  loginAt: Instance,
  label: string,
): Promise<TestUser> {
  const email = `${label}.${randomBytes(4).toString('hex')}@example.test`
  const registered = await call(a.url, 'POST', 'identity/register', {
    accountType: 'client',
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    password: PASSWORD,
    acceptTerms: true,
  })
  expect(registered.status, JSON.stringify(registered.json)).toBe(200)
  const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/verify-email'))
  const token = new URL(linkIn(mail, '/auth/verify-email')).searchParams.get('token')!
  expect((await call(a.url, 'GET', `identity/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(
    200,
  )
  return logIn(loginAt, email)
}

async function logIn(instance: Instance, email: string): Promise<TestUser> {
  const login = await call(instance.url, 'POST', 'identity/login', { email, password: PASSWORD })
  expect(login.status, JSON.stringify(login.json)).toBe(200)
  return { id: login.json.user.id, email, token: login.json.token }
}

interface Client {
  connection: signalR.HubConnection
  got: unknown[][]
  closed: Promise<Error | undefined>
}

async function connect(
  instance: Instance,
  hub: 'chat' | 'notifications',
  token: string,
  transport = signalR.HttpTransportType.WebSockets,
): Promise<Client> {
  const connection = new signalR.HubConnectionBuilder()
    .withUrl(`${instance.url}/hubs/${hub}`, { transport, accessTokenFactory: () => token })
    .configureLogging(signalR.LogLevel.None)
    .build()
  const got: unknown[][] = []
  for (const target of ['countNotify', 'countChat', 'note', 'tick'])
    connection.on(target, (...args: unknown[]) => got.push([target, ...args]))
  const closed = new Promise<Error | undefined>((resolve) => connection.onclose(resolve))
  await connection.start()
  return { connection, got, closed }
}

/** Sends a numbered tick through `send` until `client` has seen one sent after this call. */
async function sendUntilReceived(
  send: (n: number) => Promise<unknown>,
  client: Client,
  timeoutMs = 20_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs
  const from = 1_000_000 + Math.floor(Math.random() * 1000) * 1000
  for (let n = from; ; n++) {
    await send(n).catch(() => undefined)
    await sleep(100)
    const hit = client.got.find(
      ([target, value]) => target === 'tick' && typeof value === 'number' && value >= from,
    )
    if (hit) return hit[1] as number
    if (Date.now() > deadline) throw new Error('delivery did not resume')
  }
}

async function startRedisServer(port: number): Promise<ChildProcess> {
  const redis = spawn(
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
  return redis
}

let testDb: TestDatabase
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let dataDir: string

beforeAll(async () => {
  testDb = await createTestDatabase('postgres')
  // Migrated and seeded once here, so the two instances do not race to migrate an empty database.
  await (await testDb.open()).close()
  smtp = await startSmtpServer()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-hubs-2i-'))
})

afterAll(async () => {
  await smtp?.close()
  await testDb?.drop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

function instanceEnv(redisUrl: string, prefix: string, name: string): Record<string, string> {
  return {
    DATABASE_URL: (testDb.target as { url: string }).url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    SMTP_URL: smtp.url,
    DATA_DIR: path.join(dataDir, name),
    HUB_REVOCATION_SWEEP_MS: '200',
    // Test-only: lets clients join `e2e:*` groups (tests/support/e2e-hooks.ts); no other kind is registered yet.
    E2E: '1',
  }
}

describe('two instances sharing PostgreSQL and Redis at 127.0.0.1:6379', () => {
  const prefix = `workneer-test-${randomBytes(6).toString('hex')}:`
  let a: Instance
  let b: Instance
  let admin: Redis
  let alice: TestUser
  let bob: TestUser

  beforeAll(async () => {
    a = await startInstance('A', instanceEnv('redis://127.0.0.1:6379', prefix, 'a'))
    b = await startInstance('B', instanceEnv('redis://127.0.0.1:6379', prefix, 'b'))
    admin = new Redis('redis://127.0.0.1:6379')
    ;[alice, bob] = await Promise.all([createUser(smtp, a, b, 'alice'), createUser(smtp, a, a, 'bob')])
  }, 120_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    admin?.disconnect()
  })

  it('a message to a user sent through A reaches the user’s connections on B and on A, and no one else', async () => {
    const onB = await connect(b, 'notifications', alice.token, signalR.HttpTransportType.WebSockets)
    const onA = await connect(a, 'notifications', alice.token, signalR.HttpTransportType.ServerSentEvents)
    const bystander = await connect(b, 'notifications', bob.token, signalR.HttpTransportType.LongPolling)
    await a.command({
      op: 'send',
      hub: 'notifications',
      to: 'user',
      key: alice.id,
      target: 'countNotify',
      args: [3],
    })
    await waitFor(() => onB.got.length && onA.got.length, 5000, 'countNotify on both connections')
    expect(onB.got).toEqual([['countNotify', 3]])
    expect(onA.got).toEqual([['countNotify', 3]])
    await a.command({
      op: 'send',
      hub: 'notifications',
      to: 'user',
      key: bob.id,
      target: 'countNotify',
      args: [1],
    })
    await waitFor(() => bystander.got.length, 5000, 'bob’s own message')
    expect(bystander.got).toEqual([['countNotify', 1]])
    expect(onB.got).toHaveLength(1)
    // Hubs are separate: a chat message does not reach the notifications connection.
    await a.command({ op: 'send', hub: 'chat', to: 'user', key: alice.id, target: 'countChat', args: [9] })
    await sleep(200)
    expect(onB.got).toHaveLength(1)
    await Promise.all([onB.connection.stop(), onA.connection.stop(), bystander.connection.stop()])
  })

  it('a message to a group sent through A reaches a member connected to B (added to the group from A)', async () => {
    const member = await connect(b, 'chat', alice.token)
    const outsider = await connect(b, 'chat', bob.token)
    const group = `room:${randomBytes(3).toString('hex')}`
    // A asks B (the owner of the connection) to add it, over the backplane, and waits for B's ack.
    await a.command({ op: 'addToGroup', hub: 'chat', connectionId: member.connection.connectionId, group })
    await a.command({
      op: 'send',
      hub: 'chat',
      to: 'group',
      key: group,
      target: 'note',
      args: ['hello room'],
    })
    await waitFor(() => member.got.length, 5000, 'group message on B')
    expect(member.got).toEqual([['note', 'hello room']])
    await a.command({
      op: 'removeFromGroup',
      hub: 'chat',
      connectionId: member.connection.connectionId,
      group,
    })
    await a.command({
      op: 'send',
      hub: 'chat',
      to: 'group',
      key: group,
      target: 'note',
      args: ['after leaving'],
    })
    await a.command({ op: 'send', hub: 'chat', to: 'user', key: alice.id, target: 'note', args: ['marker'] })
    await waitFor(() => member.got.length === 2, 5000, 'marker')
    expect(member.got).toEqual([
      ['note', 'hello room'],
      ['note', 'marker'],
    ])
    expect(outsider.got).toEqual([])
    await Promise.all([member.connection.stop(), outsider.connection.stop()])
  })

  it('a client joins a group itself (JoinGroup) on B and gets what A sends to it; unregistered kinds are refused', async () => {
    const client = await connect(b, 'chat', alice.token, signalR.HttpTransportType.ServerSentEvents)
    await expect(client.connection.invoke('JoinGroup', 'room:1')).rejects.toThrow(
      'You cannot join this group.',
    )
    await expect(client.connection.invoke('joinGroup', 42)).rejects.toThrow('You cannot join this group.')
    const group = `e2e:${randomBytes(3).toString('hex')}`
    await client.connection.invoke('JoinGroup', group)
    await a.command({ op: 'send', hub: 'chat', to: 'group', key: group, target: 'note', args: ['joined'] })
    await waitFor(() => client.got.length, 5000, 'group message')
    await client.connection.invoke('LeaveGroup', group)
    await a.command({ op: 'send', hub: 'chat', to: 'group', key: group, target: 'note', args: ['left'] })
    await a.command({ op: 'send', hub: 'chat', to: 'user', key: alice.id, target: 'note', args: ['marker'] })
    await waitFor(() => client.got.length === 2, 5000, 'marker')
    expect(client.got).toEqual([
      ['note', 'joined'],
      ['note', 'marker'],
    ])
    await client.connection.stop()
  })

  it('delivery resumes after both instances lose their Redis connections (CLIENT KILL)', async () => {
    const client = await connect(b, 'notifications', alice.token)
    const group = `project:${randomBytes(3).toString('hex')}`
    await a.command({
      op: 'addToGroup',
      hub: 'notifications',
      connectionId: client.connection.connectionId,
      group,
    })
    await a.command({
      op: 'send',
      hub: 'notifications',
      to: 'user',
      key: alice.id,
      target: 'tick',
      args: [1],
    })
    await waitFor(() => client.got.length, 5000, 'first tick')

    const list = (await admin.call('CLIENT', 'LIST')) as string
    const ids = list
      .split('\n')
      .filter((l) => l.includes(` name=${prefix}hubs:`))
      .map((l) => /^id=(\d+)/.exec(l)![1])
    expect(ids.length).toBe(4) // a publisher and a subscriber per instance
    for (const id of ids) await admin.call('CLIENT', 'KILL', 'ID', id)

    await sendUntilReceived(
      (n) =>
        a.command({ op: 'send', hub: 'notifications', to: 'user', key: alice.id, target: 'tick', args: [n] }),
      client,
    )
    // The group subscription came back as well.
    const before = client.got.length
    await a.command({ op: 'send', hub: 'notifications', to: 'group', key: group, target: 'tick', args: [2] })
    await waitFor(() => client.got.length > before, 5000, 'group delivery after the kill')
    expect(client.connection.state).toBe(signalR.HubConnectionState.Connected)
    await client.connection.stop()
  })

  it('logging out through the API on A disconnects that session’s hub connection on B, and only that one', async () => {
    const second = await logIn(a, bob.email)
    const ended = await connect(b, 'notifications', second.token, signalR.HttpTransportType.ServerSentEvents)
    const kept = await connect(b, 'notifications', bob.token)
    expect((await call(a.url, 'POST', 'identity/logout', {}, second.token)).status).toBe(200)
    const error = await Promise.race([
      ended.closed,
      sleep(5000).then(() => new Error('still connected after 5 s')),
    ])
    expect(String(error)).toContain('The session has ended.')
    // A new connection with the revoked token is refused at negotiate.
    await expect(connect(b, 'notifications', second.token)).rejects.toThrow(/401|Unauthorized/)
    expect(kept.connection.state).toBe(signalR.HubConnectionState.Connected)
    await kept.connection.stop()
  })
})

describe('two instances through a real Redis restart', () => {
  let redisPort = 0
  let redis: ChildProcess | undefined
  let a: Instance
  let b: Instance
  let carol: TestUser

  beforeAll(async () => {
    redisPort = await freePort()
    redis = await startRedisServer(redisPort)
    const url = `redis://127.0.0.1:${redisPort}`
    const prefix = `workneer-test-${randomBytes(6).toString('hex')}:`
    a = await startInstance('A2', instanceEnv(url, prefix, 'a2'))
    b = await startInstance('B2', instanceEnv(url, prefix, 'b2'))
    carol = await createUser(smtp, a, b, 'carol')
  }, 120_000)

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    redis?.kill('SIGKILL')
  })

  it('sends fail while Redis is down, local delivery goes on, and delivery to B resumes after the restart', async () => {
    const remote = await connect(b, 'notifications', carol.token)
    const local = await connect(a, 'notifications', carol.token, signalR.HttpTransportType.LongPolling)
    const send = (n: number) =>
      a.command({ op: 'send', hub: 'notifications', to: 'user', key: carol.id, target: 'tick', args: [n] })
    await send(1)
    await waitFor(() => remote.got.length && local.got.length, 5000, 'first tick on both')

    const stopped = new Promise((r) => redis!.once('exit', r))
    redis!.kill('SIGKILL')
    await stopped
    let failure: unknown = null
    for (const deadline = Date.now() + 5000; !failure && Date.now() < deadline; await sleep(50))
      failure = await send(2).then(
        () => null,
        (e: unknown) => e,
      )
    expect(String(failure)).toMatch(
      /Connection is closed|Stream isn't writeable|ECONNREFUSED|enableOfflineQueue/i,
    )
    await waitFor(() => local.got.some(([, n]) => n === 2), 5000, 'local delivery during the outage')

    redis = await startRedisServer(redisPort)
    await sendUntilReceived(send, remote)
    expect(remote.connection.state).toBe(signalR.HubConnectionState.Connected)
    await Promise.all([remote.connection.stop(), local.connection.stop()])
  })
})
