import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useMatches,
  useRouteLoaderData,
} from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/root'
import { getLocale, i18nextMiddleware } from './middleware/i18next'
import { useNonce } from './lib/nonce'
import { LowPriorityScripts } from './lib/start-scripts'
import { registerServiceWorker } from './lib/service-worker'
import { noticeFor } from './lib/errors'
import { ApiCallError, apiFor, isThrownAnswer } from './lib/api.server'
import { createSessionMiddleware, getUser } from './lib/session.server'
import { refusalMiddleware } from './lib/page-guard.server'
import { identityContract } from '#server/modules/identity/contract.ts'
import { RealtimeProvider } from './components/realtime'
import { UsedNamespaces } from './components/used-namespaces'
import { PageWords } from './lib/words'
import { watchMenus } from './components/shell/menus'
import stylesheet from './styles/app.css?url'
import styles from './styles/app.css?inline'

// The session middleware asks the API who the cookie's token names: nobody when the API refuses
// the token (signed out, revoked, suspended). It asks identity/session, not identity/profile: the
// top bar needs no points or completeness, which took three more reads on every page (decision 366).
const sessionMiddleware = createSessionMiddleware(async (context, token) => {
  try {
    return await apiFor(context, { token }).call(identityContract.session)
  } catch (error) {
    if (isThrownAnswer(error) || (error instanceof ApiCallError && error.status < 500)) return null
    throw error
  }
})

// A request refused before React Router (cross-site, a body that is not a form) is answered first.
export const middleware: Route.MiddlewareFunction[] = [
  i18nextMiddleware,
  refusalMiddleware,
  sessionMiddleware,
]

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
]

export function loader({ context }: Route.LoaderArgs) {
  return { locale: getLocale(context), user: getUser(context) }
}

/** A route's `handle` that asks for its page to hydrate for visitors as well. */
export type Hydrating = { hydrate?: boolean } | undefined

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const locale = data?.locale ?? 'en'
  // A route may ask to run its scripts for visitors too (the style guide shows the components as
  // they behave with JavaScript).
  const matches = useMatches()
  const hydrate = Boolean(data?.user) || matches.some((m) => (m.handle as Hydrating)?.hydrate)
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f4c81" />
        <Meta />
        {hydrate ? (
          // A page with scripts carries its stylesheet (7.8 KB gzip, decision 346), so its first
          // paint waits for the HTML alone, not for a request that races the scripts on a slow
          // link. The server's HTML has the text; the browser's bundle does not.
          <style
            suppressHydrationWarning
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? styles : '' }}
          />
        ) : (
          // A visitor's page has no scripts to race: the cached file serves every page they open.
          <link rel="stylesheet" href={stylesheet} precedence="default" />
        )}
        {/* The first frame waits until the page is parsed down to its footer: Chromium otherwise
            may paint the top bar alone and the content a frame later (decision 368). */}
        <link rel="expect" href="#footer" blocking="render" />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <LowPriorityScripts />
            <UsedNamespaces />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : (
          // A visitor's page works as HTML and downloads no JavaScript bundle (decision 314): only
          // the few lines that make the menus answer Escape and outside clicks.
          <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: `(${watchMenus})()` }} />
        )}
        {/* Its lines run once, from the server's HTML: the browser's bundle does not carry them. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? registerServiceWorker : '' }}
        />
      </body>
    </html>
  )
}

// Live updates (the hubs) for signed-in users; the SignalR client loads only for them.
export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <RealtimeProvider userId={loaderData.user?.id}>
      <PageWords>
        <Outlet />
      </PageWords>
    </RealtimeProvider>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const notice = noticeFor(status, isRouteErrorResponse(error) ? error.data : null, t)
  return (
    <main className="container page" id="main">
      <div className="notice notice-error" role="alert">
        <h1>{notice.title}</h1>
        <p className="pre-line">{notice.message}</p>
        <p>
          <a href="/">{t('nav.home')}</a>
        </p>
      </div>
    </main>
  )
}
