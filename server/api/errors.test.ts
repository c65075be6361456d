import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createLogger } from '../log.ts'
import { answer, type RefusalStatus } from '../http/refusals.ts'
import { endpoint } from './contract.ts'
import { ApiError, errorCodes, errorTitles, type ErrorCode } from './errors.ts'
import { createApiHandler, implement, MAX_JSON_BYTES, type Caller } from './handler.ts'

// Every API error carries a stable machine code beside its title (the UI decides on the code): the
// title's default from the catalogue, or a more specific one its throw site gives.

const thrown: { error?: unknown } = {}
const body = z.object({ title: z.string().min(3, 'projects:errors.titleShort'), n: z.number() })
const implementations = [
  implement(
    endpoint({
      method: 'POST',
      path: 'things',
      summary: 'test',
      tag: 'test',
      access: 'public',
      body,
      response: z.object({ ok: z.boolean() }),
    }),
    () => ({ ok: true }),
  ),
  implement(
    endpoint({
      method: 'GET',
      path: 'mine',
      summary: 'test',
      tag: 'test',
      access: 'user',
      response: z.object({ ok: z.boolean() }),
    }),
    () => ({ ok: true }),
  ),
  implement(
    endpoint({
      method: 'GET',
      path: 'Admin/things',
      summary: 'test',
      tag: 'Admin',
      access: 'admin',
      response: z.object({ ok: z.boolean() }),
    }),
    () => ({ ok: true }),
  ),
  implement(
    endpoint({
      method: 'GET',
      path: 'throws',
      summary: 'test',
      tag: 'test',
      access: 'public',
      response: z.object({ ok: z.boolean() }),
    }),
    () => {
      throw thrown.error
    },
  ),
]

function handlerFor(caller: Caller | null = null) {
  return createApiHandler({
    implementations,
    log: createLogger('silent'),
    authenticate: async () => caller,
    validateResponses: true,
  })
}

async function problem(response: Response) {
  const json = (await response.json()) as Record<string, unknown>
  return { status: response.status, code: json.code, title: json.title, json }
}
const post = (text: string, headers: Record<string, string> = {}) =>
  new Request('http://x/api/v1/things', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  })

describe('error codes', () => {
  it('gives every title of the catalogue a known code, and no title the code of another kind', () => {
    for (const code of Object.values(errorTitles)) expect(errorCodes).toContain(code)
    expect(errorTitles['File Size']).toBe('file_too_large')
    expect(errorTitles['Email Not Verified']).toBe('email_not_verified')
    expect(errorTitles['Conversation Closed']).toBe('conversation_closed')
    expect(errorTitles['Invalid Info']).toBe('invalid_input')
  })

  it('answers each way a call fails with the code of its title', async () => {
    const api = handlerFor()
    const user = handlerFor({ userId: 1, sessionId: 's', roles: [] })
    const answers = [
      await problem(await api(new Request('http://x/api/v1/nothing-here'))),
      await problem(await api(new Request('http://x/api/v1/things', { method: 'DELETE' }))),
      await problem(await api(new Request('http://x/api/v1/mine'))),
      await problem(await user(new Request('http://x/api/v1/Admin/things'))),
      await problem(await api(post('{not json'))),
      await problem(await api(post(JSON.stringify({ title: 'ab', n: 'x' })))),
      await problem(await api(post('{}', { 'content-length': String(MAX_JSON_BYTES + 1) }))),
    ]
    expect(answers.map((a) => [a.status, a.code, a.title])).toEqual([
      [404, 'not_found', 'Not Found'],
      [405, 'method_not_allowed', 'Method Not Allowed'],
      [401, 'unauthorized', 'Unauthorized'],
      [403, 'forbidden', 'Forbidden'],
      [400, 'invalid_input', 'Invalid Info'],
      [400, 'invalid_input', 'Invalid Info'],
      [413, 'payload_too_large', 'Payload Too Large'],
    ])
  })

  it("keeps a throw site's own code, and gives an unexpected failure the server error's", async () => {
    const api = handlerFor()
    const call = async (error: unknown) => {
      thrown.error = error
      return problem(await api(new Request('http://x/api/v1/throws')))
    }
    const specific = await call(new ApiError(400, 'Invalid Info', 'file: Choose one', {}, 'file_missing'))
    expect([specific.code, specific.title]).toEqual(['file_missing', 'Invalid Info'])
    const byTitle = await call(new ApiError(400, 'File Size', 'Image size should not exceed 800 KB'))
    expect(byTitle.code).toBe('file_too_large')
    const crash = await call(new Error('boom'))
    expect([crash.status, crash.code]).toEqual([500, 'server_error'])
  })

  it('gives the answers of the request guard (before any endpoint) a code too', () => {
    const statuses: RefusalStatus[] = [400, 405, 413, 500, 501, 505]
    const codes = statuses.map((status) => {
      let text = ''
      const res = {
        headersSent: false,
        writeHead: () => res,
        write: (chunk: string) => void (text += chunk),
        end: () => {},
      } as unknown as ServerResponse
      answer(
        { method: 'POST', headers: {}, complete: true } as IncomingMessage,
        res,
        'json',
        { status, detail: 'x' },
        'r1',
      )
      return (JSON.parse(text) as { code: ErrorCode }).code
    })
    expect(codes).toEqual([
      'bad_request',
      'method_not_allowed',
      'payload_too_large',
      'server_error',
      'not_implemented',
      'http_version_not_supported',
    ])
  })
})

describe('field messages', () => {
  it("words a shared schema's keys in the caller's language, English by default", async () => {
    const api = handlerFor()
    const bad = JSON.stringify({ title: 'ab', n: 1 })
    const en = (await problem(await api(post(bad)))).json
    const de = (await problem(await api(post(bad, { 'accept-language': 'de' })))).json
    expect(en.errors).toEqual({ title: ['The title needs at least 5 characters.'] })
    expect(en.detail).toBe('title: The title needs at least 5 characters.')
    expect((de.errors as Record<string, string[]>).title[0]).not.toBe(
      'The title needs at least 5 characters.',
    )
    expect((de.errors as Record<string, string[]>).title[0]).not.toMatch(/^projects:/)
  })
})
