import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, Link } from 'react-router'
import type { Route } from './+types/forgot-password'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { emailInput } from '#server/modules/identity/inputs.ts'
import { getInstance } from '~/middleware/i18next'
import { AuthForm, AuthField } from '~/components/auth/fields'
import { Notice } from '~/components/auth/notices'
import { identityContract } from '#server/modules/identity/contract.ts'
import { titled } from '~/lib/meta'

// A 429's Retry-After goes out with the page as with the API.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export function loader({ context, url }: Route.LoaderArgs) {
  return {
    sent: url.searchParams.get('sent') === '1',
    title: getInstance(context).t('auth:forgot.title'),
    constraint: getZodConstraint(emailInput),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailInput })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  try {
    await apiFor(context, { token: null }).call(identityContract.forgetPassword, { body: submission.value })
  } catch (error) {
    return replyWithApiError(submission, error, ['email'])
  }
  // The same answer for every address (no account discovery).
  return redirect('/auth/forgot-password?sent=1')
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const reply = actionData
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('forgot.title')}</h1>
      {loaderData.sent ? (
        <Notice kind="success">{t('forgot.sent')}</Notice>
      ) : (
        <p className="lead">{t('forgot.lead')}</p>
      )}
      <AuthForm reply={reply}>
        <AuthField
          name="email"
          reply={reply}
          constraints={loaderData.constraint}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
        />
        <button type="submit" className="button button-primary">
          {t('forgot.submit')}
        </button>
      </AuthForm>
      <p>
        <Link to="/auth/login">{t('forgot.back')}</Link>
      </p>
    </main>
  )
}
