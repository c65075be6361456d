import { Writable } from 'node:stream'
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router'
import { isRouteErrorResponse, ServerRouter } from 'react-router'
import { renderToPipeableStream } from 'react-dom/server'
import { getInstance } from './middleware/i18next'
import { TranslationsProvider } from './lib/translations'
import { NonceProvider } from './lib/nonce'
import { StartScriptsProvider, startScriptsOf } from './lib/start-scripts'
import { appContext, type AppDeps } from './lib/context'
import { contentSecurityPolicy, newNonce } from '#server/http/security-headers.ts'

export const streamTimeout = 5_000

export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers })
  const nonce = newNonce()
  if (import.meta.env.PROD)
    headers.set('content-security-policy', contentSecurityPolicy(nonce, checkoutOriginsOf(loadContext)))
  // The whole document is sent as one body (decision 225): every loader awaits its own data, so no
  // part of a page streams in later, and one body is cheaper to send than React's many small chunks.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const chunks: Buffer[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk)
        done()
      },
      writev(parts, done) {
        for (const part of parts) chunks.push(part.chunk as Buffer)
        done()
      },
      final(done) {
        clearTimeout(timer)
        headers.set('content-type', 'text/html; charset=utf-8')
        resolve(new Response(Buffer.concat(chunks), { headers, status }))
        done()
      },
    })
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StartScriptsProvider value={startScriptsOf(routerContext)}>
          <TranslationsProvider value={getInstance(loadContext)}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </TranslationsProvider>
        </StartScriptsProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true
        },
        // Piped once everything is there, so the loader data is inline, not swapped in by script.
        onAllReady() {
          pipe(sink)
        },
        onShellError(error: unknown) {
          clearTimeout(timer)
          reject(error)
        },
        onError(error: unknown) {
          status = 500
          if (shellRendered) logError(error, request, loadContext)
        },
      },
    )
    const timer = setTimeout(abort, streamTimeout + 1000)
  })
}

// An error no loader, action or component handled: one structured line with the request id
// (React Router's default prints the stack over many lines). An aborted request is not an error,
// and neither is an answer React Router gives with its status (a POST where no form is: 405).
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (!request.signal.aborted && !isRouteErrorResponse(error)) logError(error, request, context)
}

function logError(error: unknown, request: Request, context: Readonly<RouterContextProvider>) {
  let deps: AppDeps | undefined
  try {
    deps = context.get(appContext)
  } catch {
    // The app served alone (the bench's baseline) has no context: it prints as React Router would.
  }
  const { pathname } = new URL(request.url)
  if (deps?.log) deps.log.error({ err: error, requestId: deps.requestId, path: pathname }, 'page error')
  else console.error(error)
}

/**
 * The gateways' hosted checkouts. Workneer's server always gives the app its context; the app served
 * alone (`react-router-serve`, the bench's trivial baseline) has none, and then no gateway either.
 */
function checkoutOriginsOf(loadContext: Parameters<typeof handleRequest>[4]) {
  try {
    return loadContext.get(appContext).checkoutOrigins ?? []
  } catch {
    return []
  }
}
