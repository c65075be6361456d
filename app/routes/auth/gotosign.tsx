import type { z } from 'zod'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from 'react-i18next'
import { Form, Link, data, redirect, useNavigation } from 'react-router'
import type { Route } from './+types/gotosign'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { accountTypes, signupSchema } from '~/lib/auth-forms'
import { getUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { Checkbox, Field, FormErrors, useErrorText } from '~/components/auth/form'
import { identityContract } from '../../../server/modules/identity/contract'
import { PASSWORD_MIN } from '../../../server/modules/identity/password-policy'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

export async function loader({ context }: Route.LoaderArgs) {
  if (getUser(context)) throw redirect('/')
  const { data: providers } = await apiFor(context, { token: null }).call(identityContract.thirdPartyProviders)
  return { providers, title: getInstance(context).t('auth:signup.title'), constraint: getZodConstraint(signupSchema) }
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: signupSchema })
  if (submission.status !== 'success') return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
  const v = submission.value
  try {
    await apiFor(context, { token: null }).call(identityContract.register, {
      body: { accountType: v.accountType, firstName: v.firstName, lastName: v.lastName, companyName: v.companyName, email: v.email, password: v.password, phoneNumber: v.phoneNumber, language: getLocale(context) as 'en', acceptTerms: true },
    })
  } catch (error) {
    return replyWithApiError(submission, error, ['accountType', 'firstName', 'lastName', 'companyName', 'email', 'password', 'phoneNumber', 'acceptTerms'], { hideFields: ['password'] })
  }
  return redirect(`/auth/verify-email?sent=${encodeURIComponent(v.email)}`)
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const errorText = useErrorText()
  const navigation = useNavigation()
  const [form, fields] = useForm<z.input<typeof signupSchema>>({
    lastResult: navigation.state === 'idle' ? actionData : undefined,
    constraint: loaderData.constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: { accountType: 'client' },
  })
  const kindError = fields.accountType.errors?.[0]
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('signup.title')}</h1>
      <p className="lead">{t('signup.lead')}</p>
      <Form method="post" {...getFormProps(form)} className="form-stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset className="field">
          <legend>{t('signup.kind')}</legend>
          {accountTypes.map((kind) => {
            const props = getInputProps(fields.accountType, { type: 'radio', value: kind })
            return (
              <label key={kind} className="choice">
                <input {...props} key={props.key} /> <strong>{t(`kinds.${kind}`)}</strong> <span className="muted">{t(`kinds.${kind}Hint`)}</span>
              </label>
            )
          })}
          {kindError ? (
            <p className="field-error" id={fields.accountType.errorId} role="alert">
              {errorText(kindError)}
            </p>
          ) : null}
        </fieldset>
        <Field field={fields.firstName} label={t('fields.firstName')} autoComplete="given-name" />
        <Field field={fields.lastName} label={t('fields.lastName')} autoComplete="family-name" />
        <Field field={fields.companyName} label={t('fields.companyName')} hint={t('signup.companyHint')} autoComplete="organization" />
        <Field field={fields.email} label={t('fields.email')} type="email" autoComplete="email" />
        <Field field={fields.password} label={t('fields.password')} type="password" autoComplete="new-password" hint={t('passwordPolicy', { min: PASSWORD_MIN })} />
        <Field field={fields.phoneNumber} label={t('fields.phoneOptional')} type="tel" autoComplete="tel" />
        <Checkbox field={fields.acceptTerms}>
          {t('signup.acceptTerms')}{' '}
          <Link to="/auth/terms-and-conditions" target="_blank">
            {t('signup.termsLink')}
          </Link>
        </Checkbox>
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('signup.submit')}
        </button>
      </Form>
      {loaderData.providers.length ? (
        <div className="third-party">
          <p>{t('thirdParty.or')}</p>
          {loaderData.providers.map((p) => (
            <a key={p.id} className="button" href={`/auth/oidc/${p.id}`} data-provider={p.id}>
              {t('thirdParty.signUpWith', { name: p.name })}
            </a>
          ))}
        </div>
      ) : null}
      <p>
        {t('signup.haveAccount')} <Link to="/auth/login">{t('signup.login')}</Link>
      </p>
    </main>
  )
}
