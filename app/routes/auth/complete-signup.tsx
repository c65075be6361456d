import type { z } from 'zod'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, data, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/complete-signup'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { accountTypes, completeSignupSchema } from '~/lib/auth-forms'
import { clearTicketCookie, readTicket } from '~/lib/oidc-cookies.server'
import { sessionCookie } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { Checkbox, Field, FormErrors } from '~/components/auth/form'
import { identityContract } from '../../../server/modules/identity/contract'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

// First sign-in through a provider: choose the kind of account and accept the terms.
export function loader({ request, context }: Route.LoaderArgs) {
  const ticket = readTicket(request)
  if (!ticket) throw redirect('/auth/gotosign')
  return { email: ticket.email, firstName: ticket.firstName, lastName: ticket.lastName, title: getInstance(context).t('auth:thirdParty.completeTitle'), constraint: getZodConstraint(completeSignupSchema) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const ticket = readTicket(request)
  if (!ticket) throw redirect('/auth/gotosign')
  const submission = parseWithZod(await request.formData(), { schema: completeSignupSchema })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  try {
    const session = await apiFor(context, { token: null }).call(identityContract.registerWithThirdPart, {
      body: { ticket: ticket.ticket, ...submission.value, acceptTerms: true, language: getLocale(context) as 'en' },
    })
    const headers = new Headers({ 'set-cookie': clearTicketCookie() })
    headers.append('set-cookie', sessionCookie(context, request, session.token, session.expiresAt))
    return redirect('/', { headers })
  } catch (error) {
    return replyWithApiError(submission, error, ['accountType', 'firstName', 'lastName', 'companyName', 'acceptTerms'])
  }
}

export default function CompleteSignup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const [form, fields] = useForm<z.input<typeof completeSignupSchema>>({
    lastResult: navigation.state === 'idle' ? actionData : undefined,
    constraint: loaderData.constraint,
    shouldValidate: 'onSubmit',
    defaultValue: { accountType: 'client', firstName: loaderData.firstName, lastName: loaderData.lastName },
  })
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('thirdParty.completeTitle')}</h1>
      <p className="lead">{t('thirdParty.completeLead', { email: loaderData.email })}</p>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset className="field">
          <legend>{t('signup.kind')}</legend>
          {accountTypes.map((kind) => {
            const props = getInputProps(fields.accountType, { type: 'radio', value: kind })
            return (
              <label key={kind} className="choice">
                <input {...props} key={props.key} /> <strong>{t(`kinds.${kind}`)}</strong>
              </label>
            )
          })}
        </fieldset>
        <Field field={fields.firstName} label={t('fields.firstName')} autoComplete="given-name" />
        <Field field={fields.lastName} label={t('fields.lastName')} autoComplete="family-name" />
        <Field field={fields.companyName} label={t('fields.companyName')} hint={t('signup.companyHint')} autoComplete="organization" />
        <Checkbox field={fields.acceptTerms}>
          {t('signup.acceptTerms')}{' '}
          <Link to="/auth/terms-and-conditions" target="_blank">
            {t('signup.termsLink')}
          </Link>
        </Checkbox>
        <button type="submit" className="button button-primary">
          {t('signup.submit')}
        </button>
      </Form>
    </main>
  )
}
