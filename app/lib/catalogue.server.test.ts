import { RouterContextProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { testApi } from '../../tests/integration/api-client'
import { useTestDatabase } from '../../tests/integration/databases'
import { i18nextMiddleware } from '../middleware/i18next'
import { appContext, type AppDeps } from './context'
import { readCategories } from './catalogue.server'

// Decision 360: the layout and the home page both show the areas; a request reads them from the API once.
describe('the areas of a page', () => {
  const s = useTestDatabase('sqlite')

  /** A page request's context, as the server and the root middleware make it, over the real in-process API. */
  async function pageContext(calls: string[]) {
    const { api } = testApi(s.database)
    const context = new RouterContextProvider()
    const request = new Request('http://workneer.test/')
    await i18nextMiddleware(
      { request, context, params: {}, pattern: '/', url: new URL(request.url) } as never,
      async () => new Response(),
    )
    const counted: AppDeps['api'] = (call, info) => {
      calls.push(new URL(call.url).pathname)
      return api.handler(call, info)
    }
    context.set(appContext, {
      mode: 'production',
      api: counted,
      requestId: 'catalogue-test',
      publicUrl: 'http://workneer.test',
    })
    return context
  }

  it('are read once per request, however many loaders ask, and again for the next request', async () => {
    const calls: string[] = []
    const page = await pageContext(calls)
    const [layout, home] = await Promise.all([readCategories(page), readCategories(page)])
    expect(layout.data.length).toBeGreaterThan(0)
    expect(home).toEqual(layout)
    expect(calls).toEqual(['/api/v1/categories'])
    const next = await readCategories(await pageContext(calls))
    expect(next).toEqual(layout)
    expect(calls).toHaveLength(2)
  })
})
