import { forwardRef } from 'react'
import { Link as RouterLink, type LinkProps } from 'react-router'

/**
 * The app's Link: React Router's in the browser, a plain anchor on the server (decision 135).
 *
 * Why: on the server a `<Link>` only decides its href, yet each one runs six hooks, resolves its
 * path against the location and builds a click handler nobody calls; the shell alone has ~45 of
 * them, about a fourteenth of a signed-in page's server time. For an absolute, already clean path
 * the anchor React Router would render is known without any of that (the same attributes, so the
 * browser's `<Link>` hydrates it and keeps client navigation); anything else goes to React Router.
 */
/** An absolute path React Router would leave as it is: no protocol or `//`, no `.`/`..` segment, no doubled slash. */
export function isPlainPath(to: LinkProps['to'] | undefined): to is string {
  if (typeof to !== 'string' || !to.startsWith('/')) return false
  const path = to.split(/[?#]/, 1)[0]
  return !path.includes('//') && !/\/\.\.?(\/|$)/.test(path)
}

const ServerLink = forwardRef<HTMLAnchorElement, LinkProps>(function ServerLink(props, ref) {
  // React Router's own props stay off the anchor (named here, not deleted from a copy: that would
  // turn every link's props into a slow dictionary object).
  const {
    to,
    prefetch = 'none',
    discover = 'render',
    reloadDocument,
    relative: _relative,
    replace: _replace,
    mask: _mask,
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    ...anchor
  } = props
  if (!isPlainPath(to) || prefetch !== 'none' || reloadDocument) return <RouterLink ref={ref} {...props} />
  return <a {...anchor} href={to} data-discover={discover === 'render' ? 'true' : undefined} />
})

export const Link: typeof RouterLink = typeof document === 'undefined' ? ServerLink : RouterLink
