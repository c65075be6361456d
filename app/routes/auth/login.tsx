import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, useNavigation, Link } from 'react-router'
import type { Route } from './+types/login'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { deviceCookie, readDeviceToken } from '~/lib/device-cookie.server'
import { loginInput } from '#server/modules/identity/inputs.ts'
import { getUser, redirectTarget, secureCookies, sessionCookie } from '~/lib/session.server'
import { challengeCookie, SECOND_FACTOR_PAGE } from '~/lib/second-factor.server'
import { getInstance } from '~/middleware/i18next'
import { AuthForm, AuthField, ThirdPartyLinks } from '~/components/auth/fields'
import { identityContract } from '#server/modules/identity/contract.ts'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { titled } from '~/lib/meta'

// A 429's Retry-After goes out with the page as with the API.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const redirectTo = redirectTarget(url)
  if (getUser(context)) throw redirect(redirectTo)
  const { data: providers } = await apiFor(context, { token: null }).call(
    identityContract.thirdPartyProviders,
  )
  return {
    redirectTo,
    providers,
    title: getInstance(context).t('auth:login.title'),
    constraint: getZodConstraint(loginInput),
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: loginInput })
  if (submission.status !== 'success')
    return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
  try {
    // A browser that signed in to this account before says so, and is not locked out by others' guesses.
    const deviceToken = readDeviceToken(request)
    const session = await apiFor(context, { token: null }).call(identityContract.login, {
      body: { ...submission.value, deviceToken },
    })
    const to = safeRedirect(String(formData.get('redirectTo') ?? '') || redirectTarget(url))
    const headers = new Headers({ 'set-cookie': deviceCookie(context, request, session.deviceToken) })
    // The password was right and a code is still owed: the challenge waits in a cookie for the next page.
    if ('challenge' in session) {
      headers.append('set-cookie', challengeCookie(session, to, secureCookies(context, request)))
      return redirect(SECOND_FACTOR_PAGE, { headers })
    }
    headers.append('set-cookie', sessionCookie(context, request, session.token, session.expiresAt))
    return redirect(to, { headers })
  } catch (error) {
    return replyWithApiError(submission, error, ['email', 'password'], { hideFields: ['password'] })
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const reply = actionData
  const constraints = loaderData.constraint
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('login.title')}</h1>
      <p className="lead">{t('login.lead')}</p>
      <AuthForm reply={reply}>
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <AuthField
          name="email"
          reply={reply}
          constraints={constraints}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          autoFocus
        />
        <AuthField
          name="password"
          reply={reply}
          constraints={constraints}
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
        />
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('login.submit')}
        </button>
      </AuthForm>
      <p>
        <Link to="/auth/forgot-password">{t('login.forgot')}</Link>
      </p>
      <ThirdPartyLinks providers={loaderData.providers} purpose="signIn" redirectTo={loaderData.redirectTo} />
      <p>
        {t('login.noAccount')} <Link to="/auth/gotosign">{t('login.signUp')}</Link>
      </p>
    </main>
  )
}
