import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { useReplyForm } from '~/components/ui/reply-form'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/close-account'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { clearSessionCookie, requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { CurrentPassword, Field, ReplyPostForm } from '~/components/auth/form'
import { Button, ButtonLink } from '~/components/ui/button'
import { closeAccountInput } from '#server/modules/identity/inputs.ts'
import { identityContract } from '#server/modules/identity/contract.ts'
import { CLOSING_GRACE_DAYS } from '#server/modules/identity/close-account.ts'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'

// Account settings › close the account (issue 42 item 3, decision 330): the password, and a code
// when two-factor sign-in is on. Refused with its reason while a contract is active or money is
// held or owed; otherwise the person is signed out and told until when signing in keeps it.
export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'account.settings')
  const status = await apiFor(context).call(identityContract.secondFactor)
  return {
    needsCode: status.enabled,
    graceDays: CLOSING_GRACE_DAYS,
    title: getInstance(context).t('auth:close.title'),
  }
}

const refusals = ['active_contract', 'money_held', 'money_owed']

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'account.settings')
  const submission = parseWithZod(await request.formData(), { schema: closeAccountInput })
  const hideFields = ['password', 'code']
  if (submission.status !== 'success') return data(submission.reply({ hideFields }), { status: 400 })
  try {
    const closed = await apiFor(context).call(identityContract.closeAccount, { body: submission.value })
    const { t, language } = getInstance(context)
    const date = new Date(closed.erasedAt).toLocaleDateString(language, {
      dateStyle: 'long',
      timeZone: 'UTC',
    })
    return redirectWithFlash(
      '/',
      { kind: 'success', message: t('auth:close.done', { date }) },
      { headers: { 'set-cookie': clearSessionCookie(context, request) } },
    )
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 409 && refusals.includes(error.code ?? ''))
      return data(submission.reply({ formErrors: [`close.refused.${error.code}`], hideFields }), {
        status: 409,
      })
    const reply = replyWithApiError(submission, error, ['password', 'code'], { hideFields })
    return data(reply.data, reply.init ?? undefined)
  }
}

export default function CloseAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const form = useReplyForm(actionData as SubmissionResult<string[]> | undefined, 'close')
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('close.title')}</h1>
      <p className="lead">{t('close.lead', { days: loaderData.graceDays })}</p>
      <ul>
        <li>{t('close.kept')}</li>
        <li>{t('close.blocked')}</li>
      </ul>
      <ReplyPostForm form={form} id="close">
        <CurrentPassword field={form.field('password')} label={t('close.password')} />
        {loaderData.needsCode ? (
          <Field field={form.field('code')} label={t('close.code')} autoComplete="one-time-code" />
        ) : null}
        <Button variant="destructive">{t('close.submit')}</Button>
      </ReplyPostForm>
      <p>
        <ButtonLink to="/profile/account-settings">{t('close.back')}</ButtonLink>
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
