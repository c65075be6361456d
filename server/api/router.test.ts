import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Endpoint, Method } from './contract.ts'
import { createRouter } from './router.ts'

const endpoint = (method: Method, path: string): Endpoint => ({
  method,
  path,
  summary: path,
  tag: 't',
  access: 'public',
  response: z.unknown(),
})
const router = createRouter(
  [
    endpoint('GET', 'projects/client'),
    endpoint('GET', 'projects/{projectId}'),
    endpoint('DELETE', 'projects/{projectId}'),
    endpoint('GET', 'Settings/faq'),
    endpoint('GET', 'projects/{projectId}/files/{fileId}'),
  ].map((e) => ({ endpoint: e, handler: e.path })),
)
const hit = (method: string, path: string) => {
  const found = router.match(method, path)
  return found && typeof found === 'object'
    ? { handler: found.route.handler, method: found.route.endpoint.method, params: found.params }
    : found
}

describe('the API router', () => {
  it('takes the first route that fits, in the order the routes were given', () => {
    expect(hit('GET', 'projects/client')).toEqual({ handler: 'projects/client', method: 'GET', params: {} })
    expect(hit('GET', 'projects/12')).toEqual({
      handler: 'projects/{projectId}',
      method: 'GET',
      params: { projectId: '12' },
    })
    expect(hit('DELETE', 'projects/12')).toEqual({
      handler: 'projects/{projectId}',
      method: 'DELETE',
      params: { projectId: '12' },
    })
  })
  it('compares literal segments without regard to case, and keeps parameters as they came', () => {
    expect(hit('GET', 'settings/FAQ')).toMatchObject({ handler: 'Settings/faq' })
    expect(hit('GET', 'PROJECTS/AbC/files/x%20y')).toEqual({
      handler: 'projects/{projectId}/files/{fileId}',
      method: 'GET',
      params: { projectId: 'AbC', fileId: 'x y' },
    })
  })
  it('says a path exists under another method, and finds nothing where no route fits', () => {
    expect(hit('POST', 'projects/12')).toBe('method-not-allowed')
    expect(hit('GET', 'projects')).toBeNull()
    expect(hit('GET', 'projects/12/files')).toBeNull()
    expect(hit('GET', 'projects/12/files/3/more')).toBeNull()
  })
  it('matches no route with an empty parameter or one that is not valid percent-encoding', () => {
    expect(hit('GET', 'projects/')).toBeNull()
    expect(hit('GET', 'projects/%E0%A4%A')).toBeNull()
    expect(hit('GET', 'projects/12/files/')).toBeNull()
  })
})
