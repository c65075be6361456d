import { Writable } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import pino from 'pino'
import { z } from 'zod'
import { endpoint } from './contract.ts'
import { createApiHandler, implement } from './handler.ts'

// Every call's log lines carry its request id, but the logger bound to it is made only when a line
// is written at the server's level: pino's child costs more than a small in-process call.

const ok = endpoint({
  method: 'GET',
  path: 'ok',
  summary: 'ok',
  tag: 'test',
  access: 'public',
  response: z.object({ ok: z.boolean() }),
})
const broken = endpoint({
  method: 'GET',
  path: 'broken',
  summary: 'broken',
  tag: 'test',
  access: 'public',
  response: z.object({ ok: z.boolean() }),
})

function handlerAt(level: string) {
  const lines: Array<Record<string, unknown>> = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const log = pino({ level }, sink)
  const child = vi.spyOn(log, 'child')
  const handler = createApiHandler({
    implementations: [
      implement(ok, () => ({ ok: true })),
      implement(broken, () => {
        throw new Error('the disk is on fire')
      }),
    ],
    log,
    authenticate: async () => null,
    validateResponses: true,
  })
  const call = (path: string) =>
    handler(new Request(`http://in-process/api/v1/${path}`), { requestId: `req-${path}` })
  return { lines, child, call }
}

describe('the API’s request log', () => {
  it('at info, each call writes one line with its request id', async () => {
    const { lines, child, call } = handlerAt('info')
    expect((await call('ok')).status).toBe(200)
    expect(lines).toMatchObject([{ requestId: 'req-ok', msg: 'api', status: 200, path: '/api/v1/ok' }])
    expect(child).toHaveBeenCalledTimes(1)
  })

  it('at warn, a call that logs nothing makes no logger; a failure is logged with its request id', async () => {
    const { lines, child, call } = handlerAt('warn')
    expect((await call('ok')).status).toBe(200)
    expect(child).not.toHaveBeenCalled()
    expect(lines).toEqual([])
    const failed = await call('broken')
    expect(failed.status).toBe(500)
    expect(await failed.json()).toMatchObject({ requestId: 'req-broken' })
    expect(lines).toMatchObject([
      { requestId: 'req-broken', msg: 'unhandled error in API', err: { message: 'the disk is on fire' } },
    ])
  })
})
