import type { Submission } from '@conform-to/react'
import { data, type HeadersFunction } from 'react-router'
import { ApiCallError } from './api.server'
import { apiFieldErrors } from './auth-forms'

// Turns an API refusal into the form's reply: field messages on their fields, everything else as
// the form's message; the status (and a 429's Retry-After) passes through.
export function replyWithApiError(
  submission: Submission<any>,
  error: unknown,
  fields: string[],
  extra: { hideFields?: string[] } = {},
) {
  if (!(error instanceof ApiCallError)) throw error
  const body = typeof error.problem === 'object' ? error.problem : null
  const headers = new Headers()
  let formErrors: string[] = []
  const fieldErrors: Record<string, string[]> = {}
  if (error.status === 429) {
    formErrors = ['errors.tooMany']
    const after = error.retryAfter
    if (after) headers.set('retry-after', String(after))
  } else if (error.status === 400) {
    for (const [field, messages] of Object.entries(apiFieldErrors(body?.errors))) {
      if (fields.includes(field)) fieldErrors[field] = messages
      else
        formErrors.push(
          ...messages.map((m) => (field === 'thirdParty' || field === 'token' ? m : `${field}: ${m}`)),
        )
    }
    if (!formErrors.length && !Object.keys(fieldErrors).length) formErrors = [body?.detail ?? 'errors.failed']
  } else if (error.status === 401) formErrors = ['errors.invalidCredentials']
  else if (error.code === 'email_not_verified') formErrors = ['errors.emailNotVerified']
  else if (error.code === 'account_suspended') formErrors = ['errors.suspended']
  else if (error.status >= 500) formErrors = ['errors.server']
  else formErrors = [body?.detail ?? 'errors.failed']
  return data(submission.reply({ formErrors, fieldErrors, hideFields: extra.hideFields }), {
    status: error.status,
    headers,
  })
}

/**
 * A form route's `headers`: its action's Retry-After reaches the page's answer (React Router passes
 * only cookies from an action unless the route says which headers to send).
 */
export const withRetryAfter: HeadersFunction = ({ parentHeaders, actionHeaders }) => {
  const headers = new Headers(parentHeaders)
  const after = actionHeaders.get('retry-after')
  if (after) headers.set('retry-after', after)
  return headers
}
