import { stringifySetCookie } from 'cookie'
import { redirect } from 'react-router'
import type { Route } from './+types/set-language'
import { fallbackLanguage, isLanguage, languageCookie } from '~/lib/i18n'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { ErrorPage } from '~/components/error-page'

// The language switcher's target: a plain form POST, so it works without JavaScript. Sets the
// `lang` cookie to the bare code (DESIGN: any page or server can set it) and goes back.
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const value = form.get('lang')
  const lang = isLanguage(value) ? value : fallbackLanguage
  const cookie = stringifySetCookie({
    name: languageCookie,
    value: lang,
    path: '/',
    maxAge: 60 * 60 * 24 * 365,
    sameSite: 'lax',
  })
  return redirect(safeRedirect(form.get('redirectTo')), { headers: { 'set-cookie': cookie } })
}

export function loader() {
  return redirect('/')
}

// A form target with a status page of its own, not a bare resource route: what it refuses (another
// site's form, a body that is not a form) is answered with the page of docs/product.md §8, not JSON.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
