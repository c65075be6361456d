import { createContext, useContext, type ComponentPropsWithoutRef, type ComponentType, type ReactNode } from 'react'
import { I18nContext } from 'react-i18next'
import { UNSAFE_DataRouterContext as DataRouterContext, UNSAFE_DataRouterNavigationContext as DataRouterNavigationContext, UNSAFE_DataRouterStateContext as DataRouterStateContext, UNSAFE_LocationContext as LocationContext, UNSAFE_NavigationContext as NavigationContext, UNSAFE_RouteContext as RouteContext } from 'react-router'

/**
 * Parts of the shell that read the same for everyone with the same language and menu (the footer,
 * the side menu, the account menu's links, the language menu) are rendered by React once per key
 * on the server and kept as HTML (decision 274): each page then writes that HTML instead of
 * rendering a few hundred elements again. The browser renders the same components, and hydrates
 * the kept HTML as if React had written it in place, because it did: the same components, through
 * React's own server renderer, with the page's contexts.
 *
 * A kept part is a component and its props: the props (as JSON) and the language are its key, so
 * what it shows cannot depend on anything else by mistake: it reads the language and the location
 * through hooks, inside its own render. The page's own address (forms that send the user back to
 * it) is the one thing that may differ between requests with the same key: the kept render sees a
 * placeholder path, filled in per request, escaped as React escapes an attribute.
 */
type Tag = 'footer' | 'details' | 'ul' | 'article'
type Props<T extends Tag, P extends object> = ComponentPropsWithoutRef<T> & { as: T; component: ComponentType<P>; props: P }

/** React's server renderer (renderToString), provided by entry.server.tsx; none in the browser. */
export const KeptRenderer = createContext<((node: ReactNode) => string) | null>(null)

const PATH_HOLE = 'kept-markup-path-hole'
const kept = new Map<unknown, Map<string, string>>()
/**
 * Keys per part: the shell's are language × menu × catalogue, a few dozen; a project card's are its
 * project's state, a few per project shown. The bound keeps memory to a few MB whatever comes.
 */
const MAX_KEPT = 1000

/** An attribute value escaped as React escapes it (react-dom's escapeTextForBrowser). */
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }
const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (c) => escapes[c])

export function Kept<T extends Tag, P extends object>({ as: Element, component: Part, props, ...attributes }: Props<T, P>) {
  const render = useContext(KeptRenderer)
  // The contexts a kept part may read, handed to its own render (React starts that one bare).
  const i18n = useContext(I18nContext)
  const location = useContext(LocationContext)
  const navigation = useContext(NavigationContext)
  const route = useContext(RouteContext)
  const dataRouter = useContext(DataRouterContext)
  const dataRouterState = useContext(DataRouterStateContext)
  const dataRouterNavigation = useContext(DataRouterNavigationContext)
  const Host = Element as 'div'
  if (!render)
    return (
      <Host {...(attributes as ComponentPropsWithoutRef<'div'>)}>
        <Part {...props} />
      </Host>
    )
  const key = `${i18n.i18n?.language}\u0000${JSON.stringify(props)}`
  let byKey = kept.get(Part)
  if (!byKey) kept.set(Part, (byKey = new Map()))
  let html = byKey.get(key)
  if (html === undefined) {
    const placeholder = { ...location, location: { ...location.location, pathname: PATH_HOLE, search: '', hash: '' } }
    html = render(
      <I18nContext.Provider value={i18n}>
        <NavigationContext.Provider value={navigation}>
          <LocationContext.Provider value={placeholder}>
            <DataRouterContext.Provider value={dataRouter}>
              <DataRouterStateContext.Provider value={dataRouterState}>
                <DataRouterNavigationContext.Provider value={dataRouterNavigation}>
                  <RouteContext.Provider value={route}>
                    <Part {...props} />
                  </RouteContext.Provider>
                </DataRouterNavigationContext.Provider>
              </DataRouterStateContext.Provider>
            </DataRouterContext.Provider>
          </LocationContext.Provider>
        </NavigationContext.Provider>
      </I18nContext.Provider>,
    )
    // React hoists what a part preloads (an eager image's <link rel=preload>) to the front of its
    // own render; kept, it would land inside the part's element. A kept part must preload nothing.
    if (html.startsWith('<link')) throw new Error(`A kept part (${Part.displayName ?? Part.name}) preloads a resource: make its images lazy, or do not keep it`)
    if (byKey.size >= MAX_KEPT) byKey.clear()
    byKey.set(key, html)
  }
  const here = location.location.pathname + location.location.search
  return <Host {...(attributes as ComponentPropsWithoutRef<'div'>)} dangerouslySetInnerHTML={{ __html: html.replaceAll(PATH_HOLE, escapeAttribute(here)) }} />
}

/** For tests: forget every kept part. */
export const forgetKept = () => kept.clear()
