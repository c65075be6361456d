import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, Link } from 'react-router'
import type { Route } from './+types/reset-password'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { resetPasswordForm } from '~/lib/auth-forms'
import { clearSessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { AuthForm, AuthField } from '~/components/auth/fields'
import { identityContract } from '#server/modules/identity/contract.ts'
import { PASSWORD_MIN } from '#server/modules/identity/password-policy.ts'
import { titled } from '~/lib/meta'

// A 429's Retry-After goes out with the page as with the API.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// The password length travels in the loader's data: the password policy stays on the server (decision 031).
export function loader({ context, url }: Route.LoaderArgs) {
  return {
    token: url.searchParams.get('token') ?? '',
    title: getInstance(context).t('auth:reset.title'),
    constraint: getZodConstraint(resetPasswordForm),
    passwordMin: PASSWORD_MIN,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: resetPasswordForm })
  if (submission.status !== 'success')
    return data(submission.reply({ hideFields: ['password', 'confirmPassword'] }), { status: 400 })
  try {
    await apiFor(context, { token: null }).call(identityContract.resetPassword, {
      body: { token: submission.value.token, password: submission.value.password },
    })
  } catch (error) {
    return replyWithApiError(submission, error, ['password'], { hideFields: ['password', 'confirmPassword'] })
  }
  // Every session ended with the reset, this browser's too.
  return redirect('/auth/login?reset=1', { headers: { 'set-cookie': clearSessionCookie(context, request) } })
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const reply = actionData
  const constraints = loaderData.constraint
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('reset.title')}</h1>
      <AuthForm reply={reply}>
        <input type="hidden" name="token" value={loaderData.token} />
        {/* Password managers (and Chromium's console) expect the account's name next to a new password. */}
        <input type="text" autoComplete="username" hidden readOnly aria-hidden="true" tabIndex={-1} />
        <AuthField
          name="password"
          reply={reply}
          constraints={constraints}
          label={t('fields.newPassword')}
          type="password"
          autoComplete="new-password"
          hint={t('passwordPolicy', { min: loaderData.passwordMin })}
        />
        <AuthField
          name="confirmPassword"
          reply={reply}
          constraints={constraints}
          label={t('fields.confirmPassword')}
          type="password"
          autoComplete="new-password"
        />
        <button type="submit" className="button button-primary">
          {t('reset.submit')}
        </button>
      </AuthForm>
      <p>
        <Link to="/auth/forgot-password">{t('reset.again')}</Link>
      </p>
    </main>
  )
}
