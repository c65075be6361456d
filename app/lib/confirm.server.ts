import { data, type RouterContextProvider } from 'react-router'
import { getInstance } from '~/middleware/i18next'
import { redirectWithFlash } from '~/lib/flash.server'
import { CONFIRMED_FIELD } from '~/components/ui/confirm'
import { isGuarded, type ConfirmedPage } from './confirmed-forms.server'

// The server's half of the confirmation step (decision 310): a form that moves money or cannot be
// undone is acted on only when its confirmation's own form sent it.

/** Whether the POST came from a confirmation step. */
export const isConfirmed = (form: FormData) => form.get(CONFIRMED_FIELD) === 'yes'

/** Whether a POST of one of the guarded forms (confirmedForms) came without its confirmation, and so must not act. */
export const unconfirmed = (page: ConfirmedPage, intent: string, form: FormData) =>
  isGuarded(page, intent) && !isConfirmed(form)

/**
 * The refusal of a POST that skipped its confirmation: nothing changed, and the page says so (as
 * the action's `notice`, or, with `back`, as a notice on that page for pages without one).
 */
export function notConfirmed(context: Readonly<RouterContextProvider>, back?: string) {
  // In the payments texts, which only the pages with such forms load (not every page's ui texts).
  const message = getInstance(context).t('payments:confirmFirst')
  if (back) return redirectWithFlash(back, { kind: 'error', message })
  return data({ notice: message }, { status: 400 })
}

/** The values a form sent, for its confirmation step to send again (files are never carried). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [k, v] of form) if (typeof v === 'string' && k !== CONFIRMED_FIELD) fields[k] = v
  return fields
}
