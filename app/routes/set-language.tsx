import { redirect } from 'react-router'
import type { Route } from './+types/set-language'
import { fallbackLanguage, isLanguage } from '~/lib/i18n'
import { languageCookieHeader } from '~/lib/session.server'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { ErrorPage } from '~/components/error-page'

// The language switcher's target: a plain form POST, so it works without JavaScript. Sets the
// `lang` cookie to the bare code (DESIGN: any page or server can set it) and goes back.
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  const value = form.get('lang')
  const lang = isLanguage(value) ? value : fallbackLanguage
  return redirect(safeRedirect(form.get('redirectTo')), {
    headers: { 'set-cookie': languageCookieHeader(context, request, lang) },
  })
}

export function loader() {
  return redirect('/')
}

// A form target with a status page of its own, not a bare resource route: what it refuses (another
// site's form, a body that is not a form) is answered with the page of docs/product.md §8, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
