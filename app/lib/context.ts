import { createContext } from 'react-router'
import type { ApiHandler, SharedAuthentication } from '#server/api/handler.ts'
import type { Logger } from '#server/log.ts'

// What the Node entry hands to every loader and action. Created here, in a module Vite loads, so
// development and production share one context key.
export interface AppDeps {
  mode: 'production' | 'development'
  /** The in-process API; unused when apiUrl is set. */
  api: ApiHandler
  /** When set, the API is another host and calls go over HTTP. */
  apiUrl?: string
  requestId: string
  /** The server's structured log: an error no route handled is one line of it, with the request id. */
  log?: Logger
  /** The browser's address (for the API's per-IP rate limits on in-process calls). */
  clientIp?: string
  /** Set for a page request that changes nothing: its API calls authenticate once (server/api/handler.ts). */
  sharedAuthentication?: SharedAuthentication
  /** The site's address (PUBLIC_URL): absolute links such as the sign-in callback, never the request's Host. */
  publicUrl: string
  /** Other sites a form may send the browser to: a payment gateway's hosted checkout (CSP form-action, decision 195). */
  checkoutOrigins?: string[]
}

export const appContext = createContext<AppDeps>()
