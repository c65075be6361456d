import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLogger } from '../log.ts'
import { endpoint } from './contract.ts'
import { createApiHandler, implement, MAX_JSON_BYTES } from './handler.ts'

// The API reads a JSON body as it streams and stops at its limit, whoever calls it: the Node entry
// (which also limits the socket) or the in-process web UI, whose bodies reach it as web streams.

const echo = endpoint({
  method: 'POST',
  path: 'echo',
  summary: 'echo',
  tag: 'test',
  access: 'public',
  body: z.object({ text: z.string() }),
  response: z.object({ length: z.number() }),
})
const handler = createApiHandler({
  implementations: [implement(echo, ({ body }) => ({ length: body.text.length }))],
  log: createLogger('silent'),
  authenticate: async () => null,
  validateResponses: true,
})

/** A body that sends `bytes` and then never ends (a client that stalls), counting what was pulled from it. */
function stalling(bytes: number) {
  const state = { pulled: 0, cancelled: false }
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return new Promise(() => {})
      const piece = new Uint8Array(Math.min(64 * 1024, bytes - sent)).fill(0x61)
      sent += piece.length
      state.pulled = sent
      controller.enqueue(piece)
    },
    cancel() {
      state.cancelled = true
    },
  })
  return { body, state }
}

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  handler(
    new Request('http://in-process/api/v1/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  )

describe('the API’s JSON body', () => {
  it.each([
    ['just past the limit', MAX_JSON_BYTES + 1],
    ['twice the limit', 2 * MAX_JSON_BYTES],
    ['far past the limit', 50 * MAX_JSON_BYTES],
  ])(
    '%s without Content-Length: 413 while the body is still coming, the rest never pulled',
    async (_name, size) => {
      const { body, state } = stalling(size)
      const response = await post(body)
      expect(response.status).toBe(413)
      expect(response.headers.get('connection')).toBe('close')
      // What the Request pulls ahead of the reader (a few chunks), never the rest.
      expect(state.pulled).toBeLessThanOrEqual(MAX_JSON_BYTES + 4 * 64 * 1024)
      expect(state.cancelled).toBe(true)
    },
  )

  it('a declared length past the limit is refused before reading', async () => {
    const { body, state } = stalling(10)
    const response = await post(body, { 'content-length': String(MAX_JSON_BYTES + 1) })
    expect(response.status).toBe(413)
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024)
  })

  it('a body up to the limit is read whole, multi-byte characters split across chunks included', async () => {
    const text = 'ü'.repeat((MAX_JSON_BYTES - 20) / 2)
    const bytes = new TextEncoder().encode(JSON.stringify({ text }))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 4097) controller.enqueue(bytes.subarray(at, at + 4097))
        controller.close()
      },
    })
    const response = await post(body)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ length: text.length })
  })

  it('a body that breaks off is a 400, not a 500', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"text":"ab'))
        controller.error(new Error('aborted'))
      },
    })
    const response = await post(body)
    expect(response.status).toBe(400)
  })
})
