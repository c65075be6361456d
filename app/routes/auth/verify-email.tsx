import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, Link } from 'react-router'
import type { Route } from './+types/verify-email'
import { ApiCallError, apiFor } from '~/lib/api.server'
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

// docs/product.md §8: success shows the server's message; an empty result "Failed / Failed To verify token";
// an error "Invalid / Invalid or expired token".
type Outcome =
  | { kind: 'verified'; message: string }
  | { kind: 'failed' }
  | { kind: 'invalid' }
  | { kind: 'sent'; email: string }
  | { kind: 'none' }

export async function loader({ context, url }: Route.LoaderArgs) {
  const title = getInstance(context).t('auth:verify.title')
  const token = url.searchParams.get('token')
  const sent = url.searchParams.get('sent')
  let outcome: Outcome = sent ? { kind: 'sent', email: sent } : { kind: 'none' }
  if (token !== null) {
    try {
      const result = await apiFor(context, { token: null }).call(identityContract.verifyEmail, {
        query: { token },
      })
      outcome = result?.message ? { kind: 'verified', message: result.message } : { kind: 'failed' }
    } catch (error) {
      if (!(error instanceof ApiCallError) || error.status >= 500) throw error
      outcome = { kind: 'invalid' }
    }
  }
  return data(
    { outcome, title, constraint: getZodConstraint(emailInput) },
    { status: outcome.kind === 'invalid' ? 400 : 200 },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: emailInput })
  if (submission.status !== 'success')
    return data({ result: submission.reply(), message: null }, { status: 400 })
  try {
    const { message } = await apiFor(context, { token: null }).call(identityContract.resendVerification, {
      body: submission.value,
    })
    return { result: submission.reply({ resetForm: true }), message }
  } catch (error) {
    const reply = replyWithApiError(submission, error, ['email'])
    return data({ result: reply.data, message: null }, { status: reply.init?.status ?? 400 })
  }
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const { outcome } = loaderData
  const reply = actionData?.result
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('verify.title')}</h1>
      {outcome.kind === 'verified' ? (
        <>
          <Notice kind="success">{outcome.message}</Notice>
          <p>
            <Link className="button button-primary" to="/auth/login">
              {t('login.submit')}
            </Link>
          </p>
        </>
      ) : null}
      {outcome.kind === 'failed' ? (
        <Notice kind="error" title={t('verify.failedTitle')}>
          {t('verify.failed')}
        </Notice>
      ) : null}
      {outcome.kind === 'invalid' ? (
        <Notice kind="error" title={t('verify.invalidTitle')}>
          {t('verify.invalid')}
        </Notice>
      ) : null}
      {outcome.kind === 'sent' ? (
        <Notice kind="info">{t('verify.sent', { email: outcome.email })}</Notice>
      ) : null}
      {outcome.kind !== 'verified' ? (
        <section>
          <h2>{t('verify.resendTitle')}</h2>
          {actionData?.message ? <Notice kind="success">{actionData.message}</Notice> : null}
          <AuthForm reply={reply}>
            <AuthField
              name="email"
              reply={reply}
              constraints={loaderData.constraint}
              defaultValue={outcome.kind === 'sent' && !actionData ? outcome.email : undefined}
              label={t('fields.email')}
              type="email"
              autoComplete="email"
            />
            <button type="submit" className="button">
              {t('verify.resend')}
            </button>
          </AuthForm>
        </section>
      ) : null}
    </main>
  )
}
