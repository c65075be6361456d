import { forwardRef, useContext } from 'react'
import {
  Form as RouterForm,
  UNSAFE_LocationContext as LocationContext,
  UNSAFE_RouteContext as RouteContext,
  type FormProps,
} from 'react-router'
import { isPlainPath } from './link'

/**
 * The app's Form: React Router's in the browser, a plain form on the server (decision 135), as
 * app/lib/link.tsx does for links. On the server a `<Form>` runs its hooks (submit, form action,
 * location) only to write `<form method action data-discover>`; with an explicit, absolute and
 * clean `action` that form is known without them. So it is without an action (the page's own
 * address, decision 284), outside an index route and an address with an empty `index` parameter,
 * which React Router rewrites. The browser's `<Form>` hydrates the same markup and keeps its pending
 * states and client submissions.
 */
const ServerForm = forwardRef<HTMLFormElement, FormProps>(function ServerForm(props, ref) {
  // React Router's own props stay off the form (as in ServerLink: named, not deleted from a copy).
  const {
    action,
    method = 'get',
    discover = 'render',
    fetcherKey: _fetcherKey,
    navigate: _navigate,
    reloadDocument: _reloadDocument,
    replace: _replace,
    state: _state,
    relative: _relative,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    onSubmit: _onSubmit,
    ...rest
  } = props
  const here = useContext(LocationContext).location
  const route = useContext(RouteContext).matches.at(-1)?.route
  const own = action == null && !route?.index && !/(?:^\?|&)index(?:=?&|=?$)/.test(here.search)
  if (!own && !isPlainPath(action)) return <RouterForm ref={ref} {...props} />
  return (
    <form
      method={method.toLowerCase() === 'get' ? 'get' : 'post'}
      action={own ? here.pathname + here.search : action}
      {...rest}
      data-discover={discover === 'render' ? 'true' : undefined}
    />
  )
})

export const Form: typeof RouterForm = typeof document === 'undefined' ? ServerForm : RouterForm
