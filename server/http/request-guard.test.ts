import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Logger } from '../log.ts'
import { createRequestGuard } from './request-guard.ts'
import { head, rawRequest } from '../../tests/integration/raw-http.ts'

// The guard's `run`: whatever escapes a dispatch (a throw, a rejected promise, a failure after the
// answer began) is logged with the request id and answered 500, or the connection cut; the server
// goes on serving. The guard of the real server is driven in tests/integration/request-guard.test.ts.

const failures: Record<string, (res: http.ServerResponse) => unknown> = {
  '/throws': () => {
    throw new Error('boom: thrown')
  },
  '/rejects': async () => {
    await new Promise((r) => setTimeout(r, 5))
    throw new Error('boom: rejected')
  },
  '/after-headers': async (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.write('partial')
    await new Promise((r) => setTimeout(r, 5))
    throw new Error('boom: after headers')
  },
  '/not-an-error': () => {
    throw 'a string'
  },
}

let server: http.Server
let port: number
const log: Array<Record<string, unknown>> = []
beforeAll(async () => {
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void log.push(JSON.parse(line)) },
  ) as unknown as Logger
  const guard = createRequestGuard({
    log: logger,
    trustProxy: [],
    isHubPath: () => false,
    apiPrefix: '/api/v1/',
  })
  server = http.createServer((req, res) => {
    const requestId = String(req.headers['x-request-id'])
    if (!guard.admit(req, res, requestId)) return
    guard.run(req, res, () => {
      const path = (req.url ?? '').replace(/^\/api\/v1/, '')
      const fail = failures[path]
      if (fail) return fail(res)
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('an exception escaping a dispatch', () => {
  it.each(['/throws', '/rejects', '/not-an-error'])(
    '%s: a page answers 500 and the log names the request',
    async (path) => {
      const requestId = `page${path.replace(/\W/g, '')}-0001`
      const answer = await rawRequest(
        port,
        [head(`GET ${path} HTTP/1.1`, ['Host: localhost', `X-Request-Id: ${requestId}`])],
        { closeWaitMs: 100 },
      )
      expect(answer.status).toBe(500)
      expect(answer.body).toContain(requestId)
      const line = log.find((l) => l.requestId === requestId && l.msg === 'request failed')
      expect(line).toMatchObject({ level: 50, path })
      expect(line!.err).toBeTruthy()
    },
  )

  it.each(['/throws', '/rejects'])('%s on the API answers its JSON error shape', async (path) => {
    const requestId = `api${path.replace(/\W/g, '')}-0001`
    const answer = await rawRequest(
      port,
      [head(`GET /api/v1${path} HTTP/1.1`, ['Host: localhost', `X-Request-Id: ${requestId}`])],
      { closeWaitMs: 100 },
    )
    expect(answer.status).toBe(500)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 500, title: 'Server Error', requestId })
    expect(log.some((l) => l.requestId === requestId && l.msg === 'request failed')).toBe(true)
  })

  it('after the answer began, the connection is cut (a client never takes half an answer for a whole one)', async () => {
    const answer = await rawRequest(
      port,
      [head('GET /after-headers HTTP/1.1', ['Host: localhost', 'X-Request-Id: after-headers-0001'])],
      { closeWaitMs: 500 },
    )
    expect(answer.status).toBe(200)
    expect(answer.closed).toBe(true)
    expect(answer.body).not.toMatch(/\r\n0\r\n\r\n$/) // no last chunk: the body is visibly incomplete
    expect(log.some((l) => l.requestId === 'after-headers-0001' && l.msg === 'request failed')).toBe(true)
  })

  it('the server goes on serving', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/fine`)).status).toBe(200)
  })
})
