// Raw HTTP and WebSocket checks of the endpoint rules (status codes, framing, long polling, handshake).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { makeClient, sleep, startHarness, waitFor } from '../../tests/support/realtime.ts'
import type { Harness } from '../../tests/support/realtime.ts'

const RS = '\x1e'

interface Negotiation {
  negotiateVersion: number
  connectionId: string
  connectionToken: string
  availableTransports: { transport: string; transferFormats: string[] }[]
}

async function negotiate(
  url: string,
  init: RequestInit = {},
  query = '?negotiateVersion=1',
): Promise<Negotiation> {
  const res = await fetch(`${url}/negotiate${query}`, { method: 'POST', ...init })
  expect(res.status).toBe(200)
  return (await res.json()) as Negotiation
}

function records(body: string): unknown[] {
  expect(body.endsWith(RS)).toBe(true)
  return body
    .split(RS)
    .slice(0, -1)
    .map((r) => JSON.parse(r))
}

/** An opened raw WebSocket that collects text messages. */
async function rawSocket(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers })
  const messages: string[] = []
  let closed = false
  ws.on('message', (data, isBinary) => {
    expect(isBinary).toBe(false)
    messages.push(data.toString())
  })
  ws.on('close', () => (closed = true))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)))
  })
  return { ws, messages, isClosed: () => closed }
}

/** Status code of a refused upgrade. */
async function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  const ws = new WebSocket(url.replace(/^http/, 'ws'), { headers })
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('open', () => {
      ws.terminate()
      reject(new Error('upgrade unexpectedly accepted'))
    })
    ws.once('error', () => {})
  })
}

describe('hub endpoints (raw HTTP)', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({
      allowedOrigins: ['https://app.example'],
      timeouts: { pollTimeoutMs: 300, handshakeTimeoutMs: 300, disconnectTimeoutMs: 400 },
    })
  })
  afterAll(async () => {
    await h.close()
  })

  it('negotiate v1: separate URL-safe id and token, transports in order, SSE text only', async () => {
    const n = await negotiate(h.url)
    expect(n.negotiateVersion).toBe(1)
    expect(n.connectionId).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(n.connectionToken).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(n.connectionToken).not.toBe(n.connectionId)
    expect(n.availableTransports).toEqual([
      { transport: 'WebSockets', transferFormats: ['Text', 'Binary'] },
      { transport: 'ServerSentEvents', transferFormats: ['Text'] },
      { transport: 'LongPolling', transferFormats: ['Text', 'Binary'] },
    ])
    expect(n).not.toHaveProperty('useStatefulReconnect')
    const stateful = await negotiate(h.url, {}, '?negotiateVersion=1&useStatefulReconnect=true')
    expect(stateful).not.toHaveProperty('useStatefulReconnect')
  })

  it('negotiate errors: {error} for version 0, 401 on a user-only hub, 404 for unknown hubs, 405 for GET', async () => {
    const v0 = await fetch(`${h.url}/negotiate`, { method: 'POST' })
    expect(await v0.json()).toEqual({
      error: "The client requested version '0', but the server does not support this version.",
    })
    const client = makeClient(`${h.url}?negotiateVersion=0`, 'auto')
    await expect(client.connection.start()).rejects.toThrow(
      /^The client requested version '0', but the server does not support this version\.$/,
    )

    const before = h.auth.calls.length
    const secure = makeClient(`${h.origin}/hubs/secure`, 'auto', { token: 'not-a-valid-token' })
    await expect(secure.connection.start()).rejects.toThrow(
      "Failed to complete negotiation with the server: Error: Unauthorized: Status code '401'",
    )
    // The client does not retry a negotiate on 401.
    expect(h.auth.calls.slice(before).filter((c) => c.url?.includes('/negotiate'))).toHaveLength(1)

    expect(
      (await fetch(`${h.origin}/hubs/nope/negotiate?negotiateVersion=1`, { method: 'POST' })).status,
    ).toBe(404)
    const missing = makeClient(`${h.origin}/hubs/nope`, 'auto')
    await expect(missing.connection.start()).rejects.toThrow('Either this is not a SignalR endpoint')
    expect((await fetch(`${h.url}/negotiate?negotiateVersion=1`)).status).toBe(405)
  })

  it('origins: listed and same-origin pass with the right CORS headers, others get 403, preflight answers', async () => {
    const allowed = await fetch(`${h.url}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Origin: 'https://app.example' },
    })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true')
    const same = await fetch(`${h.url}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Origin: h.origin },
    })
    expect(same.status).toBe(200)
    const evil = await fetch(`${h.url}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    })
    expect(evil.status).toBe(403)
    const preflight = await fetch(`${h.url}/negotiate?negotiateVersion=1`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-signalr-user-agent, authorization',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example')
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE')
    const allowHeaders = preflight.headers.get('access-control-allow-headers') ?? ''
    for (const name of ['x-requested-with', 'x-signalr-user-agent', 'authorization', 'content-type'])
      expect(allowHeaders).toContain(name)
    const n = await negotiate(h.url)
    expect(await upgradeStatus(`${h.url}?id=${n.connectionToken}`, { Origin: 'https://evil.example' })).toBe(
      403,
    )
  })

  it('status codes of the transport endpoints', async () => {
    expect((await fetch(h.url, { method: 'POST', body: 'x' })).status).toBe(400)
    expect(await (await fetch(h.url, { method: 'POST', body: 'x' })).text()).toBe('Connection ID required')
    expect((await fetch(`${h.url}?id=unknown`, { method: 'POST', body: 'x' })).status).toBe(404)
    expect((await fetch(`${h.url}?id=unknown`)).status).toBe(404)
    expect((await fetch(`${h.url}?id=unknown`, { headers: { Accept: 'text/event-stream' } })).status).toBe(
      404,
    )
    expect(await upgradeStatus(`${h.url}?id=unknown`)).toBe(404)

    // SSE connection: second SSE → 409, poll → 400, DELETE → 400.
    const sse = await negotiate(h.url)
    const ctrl = new AbortController()
    const stream = await fetch(`${h.url}?id=${sse.connectionToken}`, {
      headers: { Accept: 'text/event-stream' },
      signal: ctrl.signal,
    })
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream')
    const reader = stream.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(':\r\n')
    expect(
      (await fetch(`${h.url}?id=${sse.connectionToken}`, { headers: { Accept: 'text/event-stream' } }))
        .status,
    ).toBe(409)
    expect((await fetch(`${h.url}?id=${sse.connectionToken}`)).status).toBe(400)
    expect((await fetch(`${h.url}?id=${sse.connectionToken}`, { method: 'DELETE' })).status).toBe(400)
    expect(await upgradeStatus(`${h.url}?id=${sse.connectionToken}`)).toBe(400)
    // The public connection id is not a credential.
    expect((await fetch(`${h.url}?id=${sse.connectionId}`, { method: 'POST', body: 'x' })).status).toBe(404)
    ctrl.abort()

    // WebSocket connection: POST → 405, second upgrade → 409.
    const wsn = await negotiate(h.url)
    const socket = await rawSocket(`${h.url}?id=${wsn.connectionToken}`)
    expect((await fetch(`${h.url}?id=${wsn.connectionToken}`, { method: 'POST', body: 'x' })).status).toBe(
      405,
    )
    expect(await upgradeStatus(`${h.url}?id=${wsn.connectionToken}`)).toBe(409)
    socket.ws.close()
  })

  it('SSE events carry whole records: handshake then invocation results', async () => {
    const n = await negotiate(h.url)
    const ctrl = new AbortController()
    const stream = await fetch(`${h.url}?id=${n.connectionToken}`, {
      headers: { Accept: 'text/event-stream' },
      signal: ctrl.signal,
    })
    const reader = stream.body!.getReader()
    let text = ''
    const send = (body: string) =>
      fetch(`${h.url}?id=${n.connectionToken}`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      })
    expect((await send(`{"protocol":"json","version":1}${RS}`)).status).toBe(200)
    expect((await send(`{"type":1,"invocationId":"1","target":"echo","arguments":[0]}${RS}`)).status).toBe(
      200,
    )
    while (!text.includes('"invocationId":"1"')) text += new TextDecoder().decode((await reader.read()).value)
    expect(text).toBe(`:\r\ndata: {}${RS}\r\n\r\ndata: {"type":3,"invocationId":"1","result":0}${RS}\r\n\r\n`)
    ctrl.abort()
  })

  it('long polling: immediate first poll, data, poll timeout, superseded poll 204, DELETE 202', async () => {
    const n = await negotiate(h.url)
    const poll = (signal?: AbortSignal) =>
      fetch(`${h.url}?id=${n.connectionToken}&_=${Date.now()}`, { signal })
    const post = (body: string) => fetch(`${h.url}?id=${n.connectionToken}`, { method: 'POST', body })
    let started = Date.now()
    const first = await poll()
    expect(first.status).toBe(200)
    expect(await first.text()).toBe('')
    expect(Date.now() - started).toBeLessThan(200)

    expect((await post(`{"protocol":"json","version":1}${RS}`)).status).toBe(200)
    const handshake = await poll()
    expect(await handshake.text()).toBe(`{}${RS}`)

    // Several records in one POST, then one record split across two POSTs (inside a multi-byte character).
    expect(
      (
        await post(
          `{"type":1,"invocationId":"1","target":"echo","arguments":[1]}${RS}{"type":1,"invocationId":"2","target":"ECHO","arguments":[false]}${RS}{"type":6}${RS}`,
        )
      ).status,
    ).toBe(200)
    const bytes = Buffer.from(`{"type":1,"invocationId":"3","target":"echo","arguments":["€uro"]}${RS}`)
    const cut = bytes.indexOf(Buffer.from('€')) + 1
    expect(
      (await fetch(`${h.url}?id=${n.connectionToken}`, { method: 'POST', body: bytes.subarray(0, cut) }))
        .status,
    ).toBe(200)
    expect(
      (await fetch(`${h.url}?id=${n.connectionToken}`, { method: 'POST', body: bytes.subarray(cut) })).status,
    ).toBe(200)
    const results: unknown[] = []
    while (results.length < 3) {
      const res = await poll()
      expect(res.status).toBe(200)
      const body = await res.text()
      if (body) results.push(...records(body))
    }
    expect(results).toEqual([
      { type: 3, invocationId: '1', result: 1 },
      { type: 3, invocationId: '2', result: false },
      { type: 3, invocationId: '3', result: '€uro' },
    ])

    // Nothing to send: the poll is held for pollTimeoutMs, then 200 with an empty body.
    started = Date.now()
    const idle = await poll()
    expect(idle.status).toBe(200)
    expect(await idle.text()).toBe('')
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)

    // A newer poll supersedes the pending one.
    const older = poll()
    await sleep(50)
    const newer = poll()
    expect((await older).status).toBe(204)
    await sleep(20)
    expect((await fetch(`${h.url}?id=${n.connectionToken}`, { method: 'DELETE' })).status).toBe(202)
    expect((await newer).status).toBe(204)
    expect((await poll()).status).toBe(404)
  })

  it('the access_token query is honoured on GET and upgrade only', async () => {
    const secure = `${h.origin}/hubs/secure`
    const n = await negotiate(secure, { headers: { Authorization: 'Bearer user-5-q' } })
    const socket = await rawSocket(`${secure}?id=${n.connectionToken}&access_token=user-5-q`)
    socket.ws.send(`{"protocol":"json","version":1}${RS}`)
    socket.ws.send(`{"type":1,"invocationId":"1","target":"whoAmI","arguments":[]}${RS}`)
    await waitFor(() => socket.messages.join('').includes('"invocationId":"1"'), 2000, 'whoAmI')
    expect(records(socket.messages.join(''))[1]).toMatchObject({
      result: { user: { userId: 5, sessionId: 'q' } },
    })
    socket.ws.close()

    // POST and negotiate ignore the query token.
    expect(
      (await fetch(`${secure}/negotiate?negotiateVersion=1&access_token=user-5-q`, { method: 'POST' }))
        .status,
    ).toBe(401)
    const lp = await negotiate(secure, { headers: { Authorization: 'Bearer user-5-q' } })
    expect((await fetch(`${secure}?id=${lp.connectionToken}&access_token=user-5-q`)).status).toBe(200)
    expect(
      (await fetch(`${secure}?id=${lp.connectionToken}&access_token=user-5-q`, { method: 'POST', body: 'x' }))
        .status,
    ).toBe(401)
    // Another user cannot use the connection even with a valid token of their own.
    expect(
      (
        await fetch(`${secure}?id=${lp.connectionToken}`, {
          method: 'POST',
          body: 'x',
          headers: { Authorization: 'Bearer user-6-q' },
        })
      ).status,
    ).toBe(403)
  })

  it('handshake: {} reply, unsupported protocol error, timeout, and no Completion for sends', async () => {
    const ok = await rawSocket(`${h.url}?id=${(await negotiate(h.url)).connectionToken}`)
    ok.ws.send(`{"protocol":"json","version":1}${RS}`)
    ok.ws.send(`{"type":1,"target":"record","arguments":["raw"]}${RS}`)
    ok.ws.send(`{"type":1,"target":"echo","arguments":[""],"invocationId":"9"}${RS}`)
    await waitFor(() => ok.messages.join('').includes('"invocationId":"9"'), 2000, 'completion')
    expect(records(ok.messages.join(''))).toEqual([{}, { type: 3, invocationId: '9', result: '' }])
    ok.ws.close()

    const bad = await rawSocket(`${h.url}?id=${(await negotiate(h.url)).connectionToken}`)
    bad.ws.send(`{"protocol":"messagepack","version":1}${RS}`)
    await waitFor(() => bad.isClosed(), 2000, 'close after handshake error')
    expect(bad.messages).toEqual([`{"error":"The protocol 'messagepack' is not supported."}${RS}`])

    const silent = await rawSocket(`${h.url}?id=${(await negotiate(h.url)).connectionToken}`)
    await waitFor(() => silent.isClosed(), 2000, 'handshake timeout')
    expect(silent.messages).toEqual([`{"error":"Handshake was canceled."}${RS}`])
  })

  it('skipNegotiation: a WebSocket without id creates its connection', async () => {
    const socket = await rawSocket(h.url)
    socket.ws.send(
      `{"protocol":"json","version":1}${RS}{"type":1,"target":"add","arguments":[20,22],"invocationId":"a"}${RS}`,
    )
    await waitFor(() => socket.messages.join('').includes('"invocationId":"a"'), 2000, 'result')
    expect(records(socket.messages.join(''))).toEqual([{}, { type: 3, invocationId: 'a', result: 42 }])
    socket.ws.close()
  })

  it('drops negotiated connections that are never used, and long-polling clients that stop polling', async () => {
    await h.restartHub()
    await negotiate(h.url)
    const lp = await negotiate(h.url)
    expect((await fetch(`${h.url}?id=${lp.connectionToken}`)).status).toBe(200)
    expect(h.hub.stats().connections).toBe(2)
    await waitFor(() => h.hub.stats().connections === 0, 2000, 'orphans dropped')
    expect((await fetch(`${h.url}?id=${lp.connectionToken}`)).status).toBe(404)
  })
})
