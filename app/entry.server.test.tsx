import { RouterContextProvider } from 'react-router'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { handleError } from './entry.server'
import { appContext, type AppDeps } from './lib/context'

// An error no route handled is one structured line of the server's log, with the request id, not
// a stack printed over many lines (issue 39, item 12).
describe('handleError', () => {
  const logged = () => {
    const lines: string[] = []
    const log = pino({ base: null }, { write: (line: string) => void lines.push(line) })
    const context = new RouterContextProvider()
    context.set(appContext, { log, requestId: 'req-39-12' } as unknown as AppDeps)
    return { lines, context }
  }

  it('writes one JSON line naming the request, the page and the error', () => {
    const { lines, context } = logged()
    handleError(new Error('the loader fell over'), {
      request: new Request('http://127.0.0.1/freelancers?search=x'),
      params: {},
      context,
    })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.trim().split('\n')).toHaveLength(1)
    const line = JSON.parse(lines[0]!) as { requestId: string; path: string; err: { message: string } }
    expect(line).toMatchObject({ requestId: 'req-39-12', path: '/freelancers', msg: 'page error' })
    expect(line.err.message).toBe('the loader fell over')
  })

  it('says nothing of an answer React Router gave with its status (a POST where no form is)', () => {
    const { lines, context } = logged()
    const refused = { status: 405, statusText: 'Method Not Allowed', internal: true, data: 'no action' }
    handleError(refused as never, { request: new Request('http://127.0.0.1/'), params: {}, context })
    expect(lines).toEqual([])
  })

  it('says nothing of a request the browser gave up', () => {
    const { lines, context } = logged()
    const gone = new AbortController()
    gone.abort()
    handleError(new Error('aborted'), {
      request: new Request('http://127.0.0.1/', { signal: gone.signal }),
      params: {},
      context,
    })
    expect(lines).toEqual([])
  })
})
