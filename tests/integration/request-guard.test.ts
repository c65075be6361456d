import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as signalR from '@microsoft/signalr'
import { loadConfig } from '#server/config.ts'
import { startServer, type RunningServer } from '#server/index.ts'
import type { Logger } from '#server/log.ts'
import { hashPassword } from '#server/modules/identity/passwords.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { chunk, head, rawRequest } from './raw-http.ts'

// The request guard of one real server (the built web app, the API, the hubs, static files,
// health), in this process, so that an exception escaping a handler fails the test run as it would
// end `npm start`.
// The socket layer does not depend on the database: SQLite only (the upload routes' limits and the
// session rows read back here are the same on PostgreSQL).

const PASSWORD = 'reinforced concrete 42'
const KB = 1024

interface Server {
  running: RunningServer
  port: number
  base: string
  log: string[]
  stop(): Promise<void>
}

async function start(
  env: Record<string, string> = {},
  options: { bodyIdleMs?: number } = {},
): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-guard-'))
  const log: string[] = []
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void log.push(line) },
  ) as unknown as Logger
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    ...env,
  })
  const running = await startServer(config, logger, options)
  return {
    running,
    port: running.port,
    base: `http://127.0.0.1:${running.port}`,
    log,
    async stop() {
      await running.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function account(server: Server, email: string, kind: 'client' | 'freelancer' = 'client') {
  const now = new Date().toISOString()
  const { id } = await server.running.database.db
    .insertInto('app_user')
    .values({
      email,
      email_verified: 1,
      password_hash: await hashPassword(PASSWORD),
      first_name: 'Dora',
      last_name: 'Door',
      account_type: kind,
      status: 'Active',
      language: 'en',
      provider: 'local',
      image_file_id: null,
      created_at: now,
      updated_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  await server.running.database.db
    .insertInto('user_role')
    .values({ user_id: id, role: kind === 'client' ? Role.Client : Role.Freelancer })
    .execute()
  return id
}

async function login(server: Server, email: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.base}/api/v1/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { token: string }).token
}

const healthy = async (server: Server) => (await fetch(`${server.base}/healthz`)).status === 200
/** A stack trace in a pino line (its `stack` field) or printed raw. */
const stackTraces = (log: string[]) => log.filter((l) => /"stack":|\n\s+at /.test(l))

let server: Server
beforeAll(async () => {
  server = await start()
}, 120_000)
afterAll(() => server?.stop())

// Every destination, as the Node entry routes them.
const destinations = [
  '/api/v1/projects',
  '/',
  '/set-language',
  '/hubs/chat/negotiate',
  '/chat/negotiate',
  '/notificationHub/negotiate',
  '/assets/x.js',
  '/favicon.svg',
  '/healthz',
]

describe('one guard in front of every destination', () => {
  const malformed: Array<{
    name: string
    line: (path: string) => string
    headers: string[]
    status: number
  }> = [
    { name: 'TRACE', line: (p) => `TRACE ${p} HTTP/1.1`, headers: ['Host: localhost'], status: 501 },
    { name: 'PROPFIND', line: (p) => `PROPFIND ${p} HTTP/1.1`, headers: ['Host: localhost'], status: 501 },
    {
      name: 'a method no site serves',
      line: (p) => `MKCOL ${p} HTTP/1.1`,
      headers: ['Host: localhost'],
      status: 501,
    },
    { name: 'Host: a b', line: (p) => `GET ${p} HTTP/1.1`, headers: ['Host: a b'], status: 400 },
    {
      name: 'Host: [',
      line: (p) => `POST ${p} HTTP/1.1`,
      headers: ['Host: [', 'Content-Length: 0'],
      status: 400,
    },
    { name: 'an empty Host', line: (p) => `GET ${p} HTTP/1.1`, headers: ['Host: '], status: 400 },
    {
      name: 'two Host headers',
      line: (p) => `GET ${p} HTTP/1.1`,
      headers: ['Host: localhost', 'Host: evil.example'],
      status: 400,
    },
    { name: 'a Host with a path', line: (p) => `GET ${p} HTTP/1.1`, headers: ['Host: a/b'], status: 400 },
    {
      name: 'a port past 65535',
      line: (p) => `GET ${p} HTTP/1.1`,
      headers: ['Host: localhost:70000'],
      status: 400,
    },
    {
      name: 'a target that is not a path',
      line: () => 'OPTIONS * HTTP/1.1',
      headers: ['Host: localhost'],
      status: 400,
    },
  ]

  it.each(malformed)(
    '$name answers $status at every destination, and the server keeps serving',
    async ({ line, headers, status }) => {
      for (const path of destinations) {
        const answer = await rawRequest(server.port, [head(line(path), headers)])
        expect(answer.status, `${line(path)} ${headers.join(' ')}`).toBe(status)
        expect(await healthy(server)).toBe(true)
      }
    },
  )

  it('a CONNECT request gets 501, not a silently dropped socket', async () => {
    const answer = await rawRequest(server.port, [
      head('CONNECT localhost:443 HTTP/1.1', ['Host: localhost:443']),
    ])
    expect(answer.status).toBe(501)
    expect(await healthy(server)).toBe(true)
  })

  it('answers the API in its JSON error shape and pages with a page, each with the request id', async () => {
    const api = await rawRequest(
      server.port,
      [head('TRACE /api/v1/projects HTTP/1.1', ['Host: localhost', 'X-Request-Id: guard-trace-0001'])],
      { closeWaitMs: 200 },
    )
    expect(api.head).toMatch(/content-type: application\/json/i)
    expect(JSON.parse(api.body)).toMatchObject({
      status: 501,
      title: 'Not Implemented',
      requestId: 'guard-trace-0001',
    })
    const page = await rawRequest(server.port, [head('GET / HTTP/1.1', ['Host: a b', 'Cookie: lang=de'])], {
      closeWaitMs: 200,
    })
    expect(page.head).toMatch(/content-type: text\/html/i)
    expect(page.body).toContain('Ungültige Anfrage')
  })

  it('a WebSocket upgrade with a malformed Host is refused like any request; one to an unknown hub is 404', async () => {
    const upgrade = [
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ]
    expect(
      (await rawRequest(server.port, [head('GET /hubs/chat HTTP/1.1', ['Host: a b', ...upgrade])])).status,
    ).toBe(400)
    expect(
      (await rawRequest(server.port, [head('GET /hubs/nowhere HTTP/1.1', ['Host: localhost', ...upgrade])]))
        .status,
    ).toBe(404)
    // Not a hub path: served as a plain request (here the not-found redirect), not a dropped socket.
    expect(
      (await rawRequest(server.port, [head('GET /nowhere HTTP/1.1', ['Host: localhost', ...upgrade])]))
        .status,
    ).toBe(302)
    expect(await healthy(server)).toBe(true)
  })
})

describe('body limits everywhere, read as a stream', () => {
  // Upload routes answer a visitor (a redirect to sign in) before reading: these clients are signed in.
  let cookie = ''
  let token = ''
  beforeAll(async () => {
    await account(server, 'uploader@guard.test', 'freelancer')
    token = await login(server, 'uploader@guard.test')
    cookie = `session=${token}`
  })
  const form = (path: string) =>
    head(`POST ${path} HTTP/1.1`, [
      'Host: localhost',
      'Content-Type: application/x-www-form-urlencoded',
      'Transfer-Encoding: chunked',
    ])
  const multipart = (path: string, boundary = 'doors') =>
    head(`POST ${path} HTTP/1.1`, [
      'Host: localhost',
      `Cookie: ${cookie}`,
      `Origin: http://localhost`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      'Transfer-Encoding: chunked',
    ])
  const filePart = (boundary = 'doors') =>
    chunk(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plan.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    )
  const bytes = (n: number) => chunk(Buffer.alloc(n, 0x61))

  // Each client sends headers and some of a body it never finishes (no last chunk, socket kept
  // open): a 413 that arrives proves the server answered before reading the rest.
  const cases: Array<{ name: string; parts: () => Array<string | Buffer> }> = [
    { name: 'a page form past 64 KB (chunked)', parts: () => [form('/set-language'), bytes(70 * KB)] },
    {
      name: 'a page form declaring 48 MB',
      parts: () => [
        head('POST /set-language HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/x-www-form-urlencoded',
          `Content-Length: ${48 * 1024 * KB}`,
        ]),
        Buffer.alloc(10 * KB, 0x61),
      ],
    },
    {
      name: 'a page action of any route (newsletter) past 64 KB',
      parts: () => [form('/newsletter'), bytes(40 * KB), bytes(40 * KB)],
    },
    {
      name: 'multipart to a page that takes no upload, past 64 KB',
      parts: () => [multipart('/contact-us'), filePart(), bytes(70 * KB)],
    },
    {
      name: 'a profile upload past docs/product.md §5’s 800 KB',
      parts: () => [multipart('/profile'), filePart(), bytes(900 * KB)],
    },
    {
      name: 'a project page upload past the 10 MB documents limit',
      parts: () => [
        multipart('/projects/details/1'),
        filePart(),
        ...Array.from({ length: 11 }, () => bytes(1024 * KB)),
      ],
    },
    {
      name: 'an API JSON body past 1 MB (chunked)',
      parts: () => [
        head('POST /api/v1/identity/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/json',
          'Transfer-Encoding: chunked',
        ]),
        chunk('{"email":"'),
        bytes(1100 * KB),
      ],
    },
    {
      name: 'an API upload declaring more than 10 MB',
      parts: () => [
        head('POST /api/v1/projects/1/uploadProjectFiles HTTP/1.1', [
          'Host: localhost',
          'Content-Type: multipart/form-data; boundary=x',
          `Content-Length: ${24 * 1024 * KB}`,
        ]),
        Buffer.alloc(64 * KB),
      ],
    },
    {
      name: 'multipart to an API endpoint past docs/product.md §5’s 800 KB (chunked)',
      parts: () => [multipart('/api/v1/identity/login'), filePart(), bytes(900 * KB)],
    },
  ]

  // A body that is no form at all is refused for its type before a byte of it is read (the page
  // guard, app/lib/page-guard.server.ts), and then the limit still bounds what is drained.
  it('a page form posted as text past 64 KB: 415 before the body ends, then the connection is closed', async () => {
    const answer = await rawRequest(
      server.port,
      [
        head('POST /auth/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: text/plain',
          'Transfer-Encoding: chunked',
        ]),
        bytes(70 * KB),
      ],
      { end: false, closeWaitMs: 2000 },
    )
    expect(answer.status).toBe(415)
    expect(answer.closed).toBe(true)
    expect(await healthy(server)).toBe(true)
  })

  it.each(cases)('$name: 413 before the body ends, then the connection is closed', async ({ parts }) => {
    const answer = await rawRequest(server.port, parts(), { end: false, closeWaitMs: 2000 })
    expect(answer.status).toBe(413)
    expect(answer.head).toMatch(/connection: close/i)
    expect(answer.closed).toBe(true)
    expect(await healthy(server)).toBe(true)
  })

  it('a declared length past the limit is refused before a byte of the body, and 100-continue is never sent for it', async () => {
    const answer = await rawRequest(
      server.port,
      [
        head('POST /api/v1/identity/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/json',
          `Content-Length: ${2 * 1024 * KB}`,
          'Expect: 100-continue',
        ]),
      ],
      { end: false },
    )
    expect(answer.status).toBe(413)
    expect(answer.interim).toEqual([])
    const accepted = await rawRequest(
      server.port,
      [
        head('POST /api/v1/identity/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/json',
          'Content-Length: 2',
          'Expect: 100-continue',
        ]),
        '{}',
      ],
      { pauseMs: 100 },
    )
    expect(accepted.interim).toEqual([100])
    expect(accepted.status).toBe(400)
  })

  it.each([
    ['no boundary', 'multipart/form-data', (part: string) => part],
    [
      'a body cut off inside the file',
      'multipart/form-data; boundary=doors',
      (part: string) => part.slice(0, -4),
    ],
    [
      'a body cut off inside the part headers',
      'multipart/form-data; boundary=doors',
      (part: string) => part.slice(0, 30),
    ],
  ])('an API upload with %s is a 400 naming the field, not a 500', async (_name, contentType, cut) => {
    const part = `--doors\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n0000`
    const response = await fetch(`${server.base}/api/v1/freelancers/profile/image`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: cut(part),
    })
    expect(response.status).toBe(400)
    expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(['file'])
  })

  it('the page is in the visitor’s language and names the limit', async () => {
    const answer = await rawRequest(
      server.port,
      [
        head('POST /projects/details/1 HTTP/1.1', [
          'Host: localhost',
          'Cookie: lang=ru',
          'Content-Type: multipart/form-data; boundary=x',
          `Content-Length: ${24 * 1024 * KB}`,
        ]),
      ],
      { end: false, closeWaitMs: 300 },
    )
    expect(answer.status).toBe(413)
    expect(answer.body).toContain('Файл больше 10 МБ')
    const form = await rawRequest(
      server.port,
      [
        head('POST /set-language HTTP/1.1', [
          'Host: localhost',
          'Accept-Language: it-IT,it;q=0.9',
          'Content-Type: application/x-www-form-urlencoded',
          `Content-Length: ${100 * KB}`,
        ]),
      ],
      { end: false, closeWaitMs: 300 },
    )
    expect(form.body).toContain('Il modulo supera 64 KB')
  })

  it('bodies within the limits are read and answered as before', async () => {
    const language = await fetch(`${server.base}/set-language`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.base },
      body: `lang=de&redirectTo=/&pad=${'a'.repeat(60 * KB)}`,
    })
    expect(language.status).toBe(302)
    const json = await fetch(`${server.base}/api/v1/identity/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.test', password: 'x'.repeat(900 * KB) }),
    })
    expect(json.status).not.toBe(413)
    expect(json.status).toBeLessThan(500)
  })

  it('nothing of the refused bodies reached the log as an error', () => {
    expect(server.log.filter((l) => /"level":50/.test(l))).toEqual([])
    expect(stackTraces(server.log)).toEqual([])
  })
})

describe('API answers', () => {
  it('carry Cache-Control: private, no-store, whatever their status; the public OpenAPI document stays public', async () => {
    await account(server, 'cache@guard.test')
    const token = await login(server, 'cache@guard.test')
    const answers = [
      await fetch(`${server.base}/api/v1/categories`),
      await fetch(`${server.base}/api/v1/identity/profile-details`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      await fetch(`${server.base}/api/v1/identity/profile-details`),
      await fetch(`${server.base}/api/v1/nothing-here`),
      await fetch(`${server.base}/api/v1/identity/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
    ]
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 404, 400])
    for (const r of answers) expect(r.headers.get('cache-control')).toBe('private, no-store')
    const tooLarge = await rawRequest(
      server.port,
      [
        head('POST /api/v1/identity/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/json',
          `Content-Length: ${2 * 1024 * KB}`,
        ]),
      ],
      { end: false },
    )
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.head).toMatch(/cache-control: private, no-store/i)
    expect((await fetch(`${server.base}/api/v1/openapi.json`)).headers.get('cache-control')).toMatch(
      /^public/,
    )
  })
})

describe('TRUST_PROXY', () => {
  const forwarded = { 'x-forwarded-for': '192.0.2.66, 198.51.100.23' }
  const sessionAddresses = async (s: Server, userId: number) =>
    (
      await s.running.database.db
        .selectFrom('user_session')
        .select('ip')
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute()
    ).map((r) => r.ip)
  const pageLogin = (s: Server, email: string) =>
    fetch(`${s.base}/auth/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: s.base,
        'sec-fetch-site': 'same-origin',
        ...forwarded,
      },
      body: new URLSearchParams({ email, password: PASSWORD }),
    })

  it('unset: the API and the pages see the socket’s address, whatever X-Forwarded-For says', async () => {
    const id = await account(server, 'unproxied@guard.test')
    await login(server, 'unproxied@guard.test', forwarded)
    expect((await pageLogin(server, 'unproxied@guard.test')).status).toBeLessThan(400)
    expect(await sessionAddresses(server, id)).toEqual(['127.0.0.1', '127.0.0.1'])
  })

  // The hubs' side: server/realtime/client-address.test.ts.
  it('set to the proxy’s address: the API and the pages see the client it forwarded', async () => {
    const proxied = await start({ TRUST_PROXY: '127.0.0.1/32,::1' })
    try {
      const id = await account(proxied, 'proxied@guard.test')
      await login(proxied, 'proxied@guard.test', forwarded)
      expect((await pageLogin(proxied, 'proxied@guard.test')).status).toBeLessThan(400)
      expect(await sessionAddresses(proxied, id)).toEqual(['198.51.100.23', '198.51.100.23'])
    } finally {
      await proxied.stop()
    }
  })
})

describe('the hubs at the names docs/product.md §7 gives them', () => {
  const transports = [
    ['WebSockets', signalR.HttpTransportType.WebSockets],
    ['ServerSentEvents', signalR.HttpTransportType.ServerSentEvents],
    ['LongPolling', signalR.HttpTransportType.LongPolling],
  ] as const

  it.each(transports)(
    'an official client given /chat and /notificationHub connects unchanged (%s)',
    async (_name, transport) => {
      const userId = await account(server, `spec-${_name.toLowerCase()}@guard.test`)
      const token = await login(server, `spec-${_name.toLowerCase()}@guard.test`)
      for (const [url, hub] of [
        ['/notificationHub', 'notifications'],
        ['/chat', 'chat'],
      ] as const) {
        const connection = new signalR.HubConnectionBuilder()
          .withUrl(`${server.base}${url}`, { transport, accessTokenFactory: () => token })
          .configureLogging(signalR.LogLevel.None)
          .build()
        const received = new Promise<number>((resolve) => connection.on('countNotify', resolve))
        await connection.start()
        try {
          const target =
            hub === 'notifications' ? server.running.hubs.notifications : server.running.hubs.chat
          await (target.toUser(userId) as { send(target: string, ...args: unknown[]): Promise<void> }).send(
            'countNotify',
            7,
          )
          expect(await received).toBe(7)
        } finally {
          await connection.stop()
        }
      }
    },
  )

  it('an unknown hub path answers 404 and leaves no stack trace in the log', async () => {
    for (const path of [
      '/hubs/nowhere/negotiate',
      '/hubs/chat/extra/negotiate',
      '/notificationHub/x/y',
      '/chat/negotiate/more',
      '/hubs/',
    ]) {
      const r = await fetch(`${server.base}${path}?negotiateVersion=1`, { method: 'POST' })
      expect(r.status, path).toBe(404)
    }
    expect(stackTraces(server.log)).toEqual([])
  })
})

// Decision 266: a page form whose body stops short (the client closes its side, or stalls with the
// socket open) gets the guard's 400 page, and the connection ends; React Router would answer nothing.
describe('page forms whose body ends early', () => {
  let quick: Server
  beforeAll(async () => {
    quick = await start({}, { bodyIdleMs: 500 })
  }, 120_000)
  afterAll(() => quick?.stop())

  it.each([
    ['the client closes its side', true],
    ['the client stalls with the socket open', false],
  ])('%s: the 400 page, then the connection is closed', async (_name, end) => {
    const answer = await rawRequest(
      quick.port,
      [
        head('POST /auth/login HTTP/1.1', [
          'Host: localhost',
          'Content-Type: application/x-www-form-urlencoded',
          'Content-Length: 100',
        ]),
        'email=a%40b.c&password=x',
      ],
      { end, waitMs: 3000, closeWaitMs: 3000 },
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toContain('<title>Bad request')
    expect(answer.closed).toBe(true)
    expect(await healthy(quick)).toBe(true)
    expect(stackTraces(quick.log)).toEqual([])
  })
})
