import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, useNavigation, Link } from 'react-router'
import type { Route } from './+types/gotosign'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError, withRetryAfter } from '~/lib/auth-actions.server'
import { accountTypes, registerInput } from '#server/modules/identity/inputs.ts'
import { SIGNED_IN_HOME, getUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { AccountTypeChoice, AuthField, AuthForm, ThirdPartyLinks } from '~/components/auth/fields'
import { AcceptTerms, NameFields } from '~/components/auth/sign-up-fields'
import { identityContract } from '#server/modules/identity/contract.ts'
import { PASSWORD_MIN } from '#server/modules/identity/password-policy.ts'
import { titled } from '~/lib/meta'

// A 429's Retry-After goes out with the page as with the API.
export const headers = withRetryAfter

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// The account kinds and the password length travel in the loader's data: the modules defining them
// carry zod and the password policy, which stay on the server (decision 031).
export async function loader({ context }: Route.LoaderArgs) {
  // Someone already signed in has an account: their dashboard, not a second sign-up (nor the home page).
  if (getUser(context)) throw redirect(SIGNED_IN_HOME)
  const { data: providers } = await apiFor(context, { token: null }).call(
    identityContract.thirdPartyProviders,
  )
  return {
    providers,
    title: getInstance(context).t('auth:signup.title'),
    constraint: getZodConstraint(registerInput),
    kinds: accountTypes,
    passwordMin: PASSWORD_MIN,
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData()
  // The new account speaks the language of the page it signed up on.
  form.set('language', getLocale(context))
  const submission = parseWithZod(form, { schema: registerInput })
  if (submission.status !== 'success')
    return data(submission.reply({ hideFields: ['password'] }), { status: 400 })
  try {
    await apiFor(context, { token: null }).call(identityContract.register, { body: submission.value })
  } catch (error) {
    return replyWithApiError(
      submission,
      error,
      [
        'accountType',
        'firstName',
        'lastName',
        'companyName',
        'email',
        'password',
        'phoneNumber',
        'acceptTerms',
      ],
      { hideFields: ['password'] },
    )
  }
  return redirect(`/auth/verify-email?sent=${encodeURIComponent(submission.value.email)}`)
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const reply = actionData
  const constraints = loaderData.constraint
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('signup.title')}</h1>
      <p className="lead">{t('signup.lead')}</p>
      <AuthForm reply={reply}>
        <AccountTypeChoice kinds={loaderData.kinds} reply={reply} constraints={constraints} withHints />
        <NameFields reply={reply} constraints={constraints} />
        <AuthField
          name="email"
          reply={reply}
          constraints={constraints}
          label={t('fields.email')}
          type="email"
          autoComplete="email"
        />
        <AuthField
          name="password"
          reply={reply}
          constraints={constraints}
          label={t('fields.password')}
          type="password"
          autoComplete="new-password"
          hint={t('passwordPolicy', { min: loaderData.passwordMin })}
        />
        <AuthField
          name="phoneNumber"
          reply={reply}
          constraints={constraints}
          label={t('fields.phoneOptional')}
          type="tel"
          autoComplete="tel"
        />
        <AcceptTerms reply={reply} constraints={constraints} />
        <button type="submit" className="button button-primary" disabled={navigation.state === 'submitting'}>
          {t('signup.submit')}
        </button>
      </AuthForm>
      <ThirdPartyLinks providers={loaderData.providers} purpose="signUp" />
      <p>
        {t('signup.haveAccount')} <Link to="/auth/login">{t('signup.login')}</Link>
      </p>
    </main>
  )
}
