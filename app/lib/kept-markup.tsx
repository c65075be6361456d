import {
  createContext,
  use,
  useContext,
  type ComponentPropsWithoutRef,
  type ComponentType,
  type Context,
  type ReactNode,
} from 'react'
import { preload } from 'react-dom'
import { I18nContext } from 'react-i18next'
import type { i18n as I18n } from 'i18next'
import { usedNamespacesOf } from './use-translation'
import { jsonOf } from './packed'
import {
  UNSAFE_DataRouterContext as DataRouterContext,
  UNSAFE_DataRouterDataContext as DataRouterDataContext,
  UNSAFE_DataRouterNavigationContext as DataRouterNavigationContext,
  UNSAFE_DataRouterStateContext as DataRouterStateContext,
  UNSAFE_FetchersContext as FetchersContext,
  UNSAFE_FrameworkContext as FrameworkContext,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_NavigationContext as NavigationContext,
  UNSAFE_RouteContext as RouteContext,
  UNSAFE_ViewTransitionContext as ViewTransitionContext,
} from 'react-router'

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
type Tag = 'header' | 'footer' | 'details' | 'ul' | 'li' | 'article'
type Props<T extends Tag, P extends object> = ComponentPropsWithoutRef<T> & {
  as: T
  component: ComponentType<P>
  props: P
}

/**
 * How kept parts are rendered on the server, provided by entry.server.tsx; none in the browser.
 * `render` is React's renderToString. `splice` takes a part's UTF-8 bytes and gives the marker React
 * writes in their place; the document's bytes are then assembled with them (kept-splice.server.ts):
 * a part of several KB costs a copy, not React's encoding of a long string on every page (decision 282).
 */
export interface KeptRendering {
  render: (node: ReactNode) => string
  splice: (pieces: Uint8Array[]) => string
}
export const KeptRenderer = createContext<KeptRendering | null>(null)

const PATH_HOLE = 'kept-markup-path-hole'
const utf8 = new TextEncoder()
/** A part's HTML, the images React preloaded for it and the namespaces it translated with: each page that writes the HTML asks for those again. */
interface KeptHtml {
  /** The HTML as UTF-8, cut where the page's address goes. */
  pieces: Uint8Array[]
  images: string[]
  namespaces: string[]
}
const kept = new Map<unknown, Map<string, KeptHtml>>()
/**
 * Keys per part: the shell's are language × menu × catalogue, a few dozen; a project card's are its
 * project's state, a few per project shown; the top bar's are what each signed-in reader's bell and
 * messages show (decision 280). The bound keeps memory to ~15 MB whatever comes.
 */
const MAX_KEPT = 1000

/** An attribute value escaped as React escapes it (react-dom's escapeTextForBrowser). */
const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
}
const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (c) => escapes[c])
const unescapes = Object.fromEntries(Object.entries(escapes).map(([c, e]) => [e, c]))
const unescapeAttribute = (value: string) => value.replace(/&(amp|lt|gt|quot|#x27);/g, (e) => unescapes[e])

// React hoists what a part preloads to the front of its own render: an eager image's
// <link rel=preload as=image>, which belongs in the page's <head>. Those are taken off the kept HTML
// and asked of the page's render again each time (react-dom's preload, which puts them in <head>).
const IMAGE_PRELOAD = /^<link rel="preload" as="image" href="([^"]*)"\/>/
function takePreloads(rendered: string, part: string) {
  const images: string[] = []
  let html = rendered
  for (let m = IMAGE_PRELOAD.exec(html); m; m = IMAGE_PRELOAD.exec(html)) {
    images.push(unescapeAttribute(m[1]))
    html = html.slice(m[0].length)
  }
  // Anything else hoisted (a stylesheet, a script, an image with more than a src) has no place in the part.
  if (html.startsWith('<link') || html.startsWith('<script') || html.startsWith('<style'))
    throw new Error(`A kept part (${part}) hoists a resource other than a plain image: do not keep it`)
  return { html, images }
}

/**
 * The contexts a kept part may read, handed to its own render (React starts that one bare); the
 * location is given apart. React Router's route id is not among them (it has no export): a kept part
 * cannot use a fetcher on the server.
 */
const CARRIED = [
  I18nContext,
  NavigationContext,
  DataRouterContext,
  DataRouterStateContext,
  DataRouterNavigationContext,
  DataRouterDataContext,
  FetchersContext,
  FrameworkContext,
  ViewTransitionContext,
  RouteContext,
] as unknown as Context<unknown>[]

export function Kept<T extends Tag, P extends object>({
  as: Element,
  component: Part,
  props,
  ...attributes
}: Props<T, P>) {
  const rendering = useContext(KeptRenderer)
  const i18n = useContext(I18nContext)
  const location = useContext(LocationContext)
  // Read in a loop with `use`, which may be (the list never changes).
  const carried = CARRIED.map((context) => use(context))
  const Host = Element as 'div'
  if (!rendering)
    return (
      <Host {...(attributes as ComponentPropsWithoutRef<'div'>)}>
        <Part {...props} />
      </Host>
    )
  const key = `${i18n.i18n?.language}\u0000${keyOf(props)}`
  let byKey = kept.get(Part)
  if (!byKey) kept.set(Part, (byKey = new Map()))
  let part = byKey.get(key)
  if (part === undefined) {
    const placeholder = {
      ...location,
      location: { ...location.location, pathname: PATH_HOLE, search: '', hash: '' },
    }
    const inner = (
      <LocationContext.Provider value={placeholder}>
        <Part {...props} />
      </LocationContext.Provider>
    )
    // The part's translations are recorded apart, so that every page that writes it names its
    // namespaces for the browser (UsedNamespaces), not only the page that rendered it.
    const own = Object.create(i18n.i18n) as I18n
    own.reportNamespaces = undefined as unknown as I18n['reportNamespaces']
    const values = carried.map((value) => (value === i18n ? { ...i18n, i18n: own } : value))
    const rendered = rendering.render(
      CARRIED.reduceRight<ReactNode>(
        (node, context, i) => <context.Provider value={values[i]}>{node}</context.Provider>,
        inner,
      ),
    )
    const { html, images } = takePreloads(rendered, Part.displayName ?? Part.name)
    part = {
      pieces: html.split(PATH_HOLE).map((piece) => utf8.encode(piece)),
      images,
      namespaces: usedNamespacesOf(own).getUsedNamespaces(),
    }
    if (byKey.size >= MAX_KEPT) byKey.clear()
    byKey.set(key, part)
  }
  for (const href of part.images) preload(href, { as: 'image' })
  usedNamespacesOf(i18n.i18n).addUsedNamespaces(part.namespaces)
  const here = utf8.encode(escapeAttribute(location.location.pathname + location.location.search))
  const marker = rendering.splice(part.pieces.flatMap((piece, i) => (i ? [here, piece] : [piece])))
  return (
    <Host {...(attributes as ComponentPropsWithoutRef<'div'>)} dangerouslySetInnerHTML={{ __html: marker }} />
  )
}

/**
 * A part's props as text, for its key: each prop's JSON. A card's project or a bar's catalogue is
 * often the same shared value from one page to the next (kept for everyone or for the session, and
 * frozen: session-data.server.ts), and its JSON is then made once (`jsonOf`), not on every page.
 * JSON never holds a raw control character, so the separators cannot be forged by a value.
 */
function keyOf(props: object) {
  let key = ''
  for (const [name, value] of Object.entries(props))
    if (value !== undefined && typeof value !== 'function') key += `${name}\u0001${jsonOf(value)}\u0002`
  return key
}

/** For tests: forget every kept part. */
export const forgetKept = () => kept.clear()
