import type { z } from 'zod'
import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, data, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/reset-password'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { resetSchema } from '~/lib/auth-forms'
import { clearSessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { Field, FormErrors } from '~/components/auth/form'
import { identityContract } from '../../../server/modules/identity/contract'
import { PASSWORD_MIN } from '../../../server/modules/identity/password-policy'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

export function loader({ context, url }: Route.LoaderArgs) {
  return { token: url.searchParams.get('token') ?? '', title: getInstance(context).t('auth:reset.title'), constraint: getZodConstraint(resetSchema) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: resetSchema })
  if (submission.status !== 'success') return data(submission.reply({ hideFields: ['password', 'confirmPassword'] }), { status: 400 })
  try {
    await apiFor(context, { token: null }).call(identityContract.resetPassword, { body: { token: submission.value.token, password: submission.value.password } })
  } catch (error) {
    return replyWithApiError(submission, error, ['password'], { hideFields: ['password', 'confirmPassword'] })
  }
  // Every session ended with the reset, this browser's too.
  return redirect('/auth/login?reset=1', { headers: { 'set-cookie': clearSessionCookie(context, request) } })
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const [form, fields] = useForm<z.input<typeof resetSchema>>({
    lastResult: navigation.state === 'idle' ? actionData : undefined,
    constraint: loaderData.constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('reset.title')}</h1>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="token" value={loaderData.token} />
        <Field field={fields.password} label={t('fields.newPassword')} type="password" autoComplete="new-password" hint={t('passwordPolicy', { min: PASSWORD_MIN })} />
        <Field field={fields.confirmPassword} label={t('fields.confirmPassword')} type="password" autoComplete="new-password" />
        <button type="submit" className="button button-primary">
          {t('reset.submit')}
        </button>
      </Form>
      <p>
        <Link to="/auth/forgot-password">{t('reset.again')}</Link>
      </p>
    </main>
  )
}
