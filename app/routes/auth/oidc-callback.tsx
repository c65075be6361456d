import { useTranslation } from '~/lib/translations'
import { data, redirect, Link } from 'react-router'
import type { Route } from './+types/oidc-callback'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { appContext } from '~/lib/context'
import { clearStateCookie, readState, ticketCookie } from '~/lib/oidc-cookies.server'
import { SIGNED_IN_HOME, secureCookies, sessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { challengeCookie, SECOND_FACTOR_PAGE } from '~/lib/second-factor.server'
import { Notice } from '~/components/auth/notices'
import { identityContract } from '#server/modules/identity/contract.ts'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { titled } from '~/lib/meta'

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// The provider sends the browser back here. The state must match this browser's cookie; the API
// then exchanges the code. docs/product.md §8: a failure shows "Failed / Failed To Login" (or "… Register").
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const t = getInstance(context).t
  const failed = (kind: 'login' | 'register') =>
    data(
      { title: t('auth:thirdParty.failedTitle'), kind },
      { status: 400, headers: { 'set-cookie': clearStateCookie() } },
    )
  const saved = readState(request)
  const state = url.searchParams.get('state')
  if (!saved || !state || saved.state !== state || url.searchParams.has('error')) return failed('login')
  try {
    // The address the provider was given (oidc-start.tsx): the site's, whatever Host this request names.
    const callbackUrl = new URL(url.pathname + url.search, context.get(appContext).publicUrl).href
    const result = await apiFor(context, { token: null }).call(identityContract.loginWithThirdPart, {
      body: { callbackUrl },
    })
    const headers = new Headers({ 'set-cookie': clearStateCookie() })
    const secure = secureCookies(context, request)
    if (result.status === 'signed-in') {
      headers.append('set-cookie', sessionCookie(context, request, result.token, result.expiresAt))
      return redirect(safeRedirect(saved.redirectTo, SIGNED_IN_HOME), { headers })
    }
    if (result.status === 'two-factor-required') {
      headers.append(
        'set-cookie',
        challengeCookie(result, safeRedirect(saved.redirectTo, SIGNED_IN_HOME), secure),
      )
      return redirect(SECOND_FACTOR_PAGE, { headers })
    }
    headers.append(
      'set-cookie',
      ticketCookie(
        {
          ticket: result.ticket,
          email: result.email,
          firstName: result.firstName,
          lastName: result.lastName,
          provider: result.provider,
        },
        secure,
      ),
    )
    return redirect('/auth/complete-signup', { headers })
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status >= 500) throw error
    const body = typeof error.problem === 'object' ? error.problem : null
    return failed(
      Object.values(body?.errors ?? {})
        .flat()
        .includes('Failed To Register')
        ? 'register'
        : 'login',
    )
  }
}

export default function OidcCallback({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  return (
    <main id="main" className="container page narrow auth-page">
      <Notice kind="error" title={t('thirdParty.failedTitle')}>
        {loaderData.kind === 'register' ? t('thirdParty.failedRegister') : t('thirdParty.failedLogin')}
      </Notice>
      <p>
        <Link to="/auth/login">{t('login.title')}</Link>
      </p>
    </main>
  )
}
