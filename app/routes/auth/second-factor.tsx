import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useNavigation } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/second-factor'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { codeInput } from '#server/modules/identity/inputs.ts'
import { clearChallengeCookie, readChallenge } from '~/lib/second-factor.server'
import { getUser, SIGNED_IN_HOME, sessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { AuthForm, AuthField } from '~/components/auth/fields'
import { identityContract } from '#server/modules/identity/contract.ts'
import { safeRedirect } from '#server/modules/identity/permissions.ts'
import { titled } from '~/lib/meta'

// The second step of a sign-in (decision 260): the password or the provider was right, and the
// account has an authenticator app. The challenge is in this browser's cookie; the person types
// the app's code or one of their recovery codes.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export function loader({ request, context }: Route.LoaderArgs) {
  if (getUser(context)) throw redirect(SIGNED_IN_HOME)
  if (!readChallenge(request)) throw redirect('/auth/login')
  return {
    title: getInstance(context).t('security:signIn.title'),
    constraint: getZodConstraint(codeInput),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const pending = readChallenge(request)
  if (!pending) throw redirect('/auth/login')
  const submission = parseWithZod(await request.formData(), { schema: codeInput })
  if (submission.status !== 'success')
    return data(submission.reply({ hideFields: ['code'] }), { status: 400 })
  try {
    const session = await apiFor(context, { token: null }).call(identityContract.loginSecondFactor, {
      body: { challenge: pending.challenge, code: submission.value.code },
    })
    const headers = new Headers({ 'set-cookie': clearChallengeCookie() })
    headers.append('set-cookie', sessionCookie(context, request, session.token, session.expiresAt))
    return redirect(safeRedirect(pending.redirectTo, SIGNED_IN_HOME), { headers })
  } catch (error) {
    // An expired challenge (or an account that can no longer sign in) starts over at the password.
    const body = error instanceof ApiCallError && typeof error.problem === 'object' ? error.problem : null
    if (body?.errors?.challenge || (error instanceof ApiCallError && error.status === 401))
      throw redirect('/auth/login', { headers: { 'set-cookie': clearChallengeCookie() } })
    if (body?.errors?.code)
      return data(
        submission.reply({ fieldErrors: { code: ['security:errors.wrongCode'] }, hideFields: ['code'] }),
        { status: 400 },
      )
    return replyWithApiError(submission, error, ['code'], { hideFields: ['code'] })
  }
}

export default function SecondFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('security')
  const navigation = useNavigation()
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('signIn.title')}</h1>
      <p className="lead">{t('signIn.lead')}</p>
      <AuthForm reply={actionData}>
        <AuthField
          name="code"
          reply={actionData}
          constraints={loaderData.constraint}
          label={t('fields.code')}
          hint={t('signIn.hint')}
          autoComplete="one-time-code"
        />
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('signIn.submit')}
        </button>
      </AuthForm>
    </main>
  )
}
