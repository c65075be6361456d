import { RouterContextProvider } from 'react-router'
import type { ApiHandler } from '#server/api/handler.ts'
import { appContext, type AppDeps } from '../../app/lib/context.ts'
import { guardPageRequest } from '../../app/lib/page-guard.server.ts'
import { i18nextMiddleware } from '../../app/middleware/i18next.ts'

// A page route's action called as server/app.ts calls it for a POST (the cross-site check, the
// language middleware, the app's dependencies with the in-process API), for tests of what a form
// or a mail client posts to a page's address without building the site.
type Action = (args: never) => unknown

export async function postToPage(
  deps: { api: ApiHandler; publicUrl: string },
  action: Action,
  path: string,
  params: Record<string, string>,
  form: Record<string, string>,
) {
  const url = new URL(path, deps.publicUrl)
  const sent = new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  const { request, refused } = guardPageRequest(sent, [deps.publicUrl])
  if (refused) throw new Error(`the page refused the request: ${refused}`)
  const context = new RouterContextProvider()
  context.set(appContext, { ...deps, mode: 'production', requestId: 'page-action-test' } as AppDeps)
  let answer: unknown
  const args = { request, params, context, url, pattern: url.pathname }
  await i18nextMiddleware(args as never, async () => {
    answer = await action(args as never)
    return new Response(null)
  })
  // `data(value, { status })` carries its status beside the value; a plain value is a 200.
  const init = (answer as { init?: { status?: number } } | undefined)?.init
  const value = init ? (answer as { data: unknown }).data : answer
  return { status: init?.status ?? 200, value }
}
