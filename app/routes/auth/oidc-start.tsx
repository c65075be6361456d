import { redirect } from 'react-router'
import type { Route } from './+types/oidc-start'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { stateCookie } from '~/lib/oidc-cookies.server'
import { appContext } from '~/lib/context'
import { redirectTarget, secureCookies } from '~/lib/session.server'
import { identityContract } from '#server/modules/identity/contract.ts'

// GET /auth/oidc/:provider — sends the browser to the provider with a fresh state, kept in a cookie.
// The provider sends it back to the site's public address (PUBLIC_URL), never to the request's Host.
export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const redirectTo = redirectTarget(url)
  try {
    const { authorizationUrl, state } = await apiFor(context, { token: null }).call(
      identityContract.thirdPartyAuthorize,
      {
        body: {
          provider: params.provider,
          redirectUri: new URL('/auth/oidc/callback', context.get(appContext).publicUrl).href,
        },
      },
    )
    const secure = secureCookies(context, request)
    return redirect(authorizationUrl, { headers: { 'set-cookie': stateCookie(state, redirectTo, secure) } })
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error
    return redirect('/auth/oidc/callback?error=start')
  }
}
