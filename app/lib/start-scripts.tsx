import { createContext, useContext } from 'react'
import { preloadModule, type PreloadModuleOptions } from 'react-dom'
import type { EntryContext } from 'react-router'
import { useNonce } from './nonce'

// A signed-in page's first paint waits for the HTML and one stylesheet only (issue 38, decision
// 327). React Router preloads the page's scripts with `<link rel="modulepreload">` at the browser's
// high priority, so on a slow link they shared the bandwidth with the stylesheet, and Lighthouse
// counts high-priority scripts as blocking the paint. The same preloads asked first at low priority
// (as React does for its own bootstrap modules) let the browser put the stylesheet first and no
// longer count as blocking; the browser fetches each file once, so React Router's own preload of it
// finds it already on its way.
const StartScripts = createContext<string[]>([])
export const StartScriptsProvider = StartScripts.Provider

/** The scripts React Router's `<Scripts>` preloads for this page: the entry and each matched route, with their imports. */
export function startScriptsOf({ manifest, staticHandlerContext }: EntryContext) {
  const routes = staticHandlerContext.matches.map((m) => manifest.routes[m.route.id])
  return [
    ...new Set([
      manifest.entry.module,
      ...manifest.entry.imports,
      ...routes.flatMap((route) => (route ? [route.module, ...(route.imports ?? [])] : [])),
    ]),
  ]
}

/** Preloads the page's start scripts at low priority; rendered where `<Scripts>` is, before it. */
export function LowPriorityScripts() {
  const nonce = useNonce()
  // @types/react-dom does not list the `fetchPriority` that react-dom 19.3 passes on.
  const options = { as: 'script', nonce, fetchPriority: 'low' } as PreloadModuleOptions
  for (const href of useContext(StartScripts)) preloadModule(href, options)
  return null
}
