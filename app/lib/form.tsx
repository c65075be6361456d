import { forwardRef } from 'react'
import { Form as RouterForm, type FormProps } from 'react-router'
import { isPlainPath } from './link'

/**
 * The app's Form: React Router's in the browser, a plain form on the server (decision 135), as
 * app/lib/link.tsx does for links. On the server a `<Form>` runs its hooks (submit, form action,
 * location) only to write `<form method action data-discover>`; with an explicit, absolute and
 * clean `action` that form is known without them. The browser's `<Form>` hydrates the same markup
 * and keeps its pending states and client submissions.
 */
const ServerForm = forwardRef<HTMLFormElement, FormProps>(function ServerForm(props, ref) {
  // React Router's own props stay off the form (as in ServerLink: named, not deleted from a copy).
  const { action, method = 'get', discover = 'render', fetcherKey: _fetcherKey, navigate: _navigate, reloadDocument: _reloadDocument, replace: _replace, state: _state, relative: _relative, preventScrollReset: _preventScrollReset, viewTransition: _viewTransition, defaultShouldRevalidate: _defaultShouldRevalidate, onSubmit: _onSubmit, ...rest } = props
  if (!isPlainPath(action)) return <RouterForm ref={ref} {...props} />
  return <form method={method.toLowerCase() === 'get' ? 'get' : 'post'} action={action} {...rest} data-discover={discover === 'render' ? 'true' : undefined} />
})

export const Form: typeof RouterForm = typeof document === 'undefined' ? ServerForm : RouterForm
