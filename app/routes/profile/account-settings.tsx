import { getFormProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, useNavigation, Form, Link } from 'react-router'
import type { Route } from './+types/account-settings'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { changePasswordForm } from '~/lib/auth-forms'
import { changeEmailInput, profileInput } from '#server/modules/identity/inputs.ts'
import { languages } from '#server/modules/identity/choices.ts'
import { languageCookieHeader, requirePermission, sessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { Field, FormErrors, Notice, useErrorText } from '~/components/auth/form'
import { identityContract } from '#server/modules/identity/contract.ts'
import { PASSWORD_MIN } from '#server/modules/identity/password-policy.ts'
import { pointRules } from '#server/modules/identity/rules.ts'
import { invoiceDetailsInput } from '#server/modules/payments/invoice-details-contract.ts'
import { InvoiceDetailsSection } from './invoice-details'
import { loadInvoiceDetails, saveInvoiceDetails } from './invoice-details.server'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'account.settings')
  const [details, invoiceDetails] = await Promise.all([
    apiFor(context).call(identityContract.profileDetails),
    loadInvoiceDetails(context),
  ])
  return {
    details,
    invoiceDetails,
    saved: url.searchParams.get('saved'),
    title: getInstance(context).t('auth:settings.title'),
  }
}

const schemas = {
  profile: profileInput,
  password: changePasswordForm,
  email: changeEmailInput,
  invoiceDetails: invoiceDetailsInput,
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'account.settings')
  const formData = await request.formData()
  const intent = String(formData.get('intent'))
  if (!(intent in schemas))
    return data(
      { intent: 'profile', result: { status: 'error' as const, error: { '': ['errors.failed'] } } },
      { status: 400 },
    )
  if (intent === 'invoiceDetails') return saveInvoiceDetails(context, formData)
  const api = apiFor(context)
  if (intent === 'profile') {
    const submission = parseWithZod(formData, { schema: profileInput })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      const v = submission.value
      const session = await api.call(identityContract.updateProfile, { body: v })
      const headers = new Headers({
        'set-cookie': sessionCookie(context, request, session.token, session.expiresAt),
      })
      headers.append('set-cookie', languageCookieHeader(context, request, v.language))
      return redirect('/profile/account-settings?saved=profile', { headers })
    } catch (error) {
      const reply = replyWithApiError(submission, error, [
        'firstName',
        'lastName',
        'phoneNumber',
        'companyName',
        'language',
      ])
      return data({ intent, result: reply.data }, reply.init ?? undefined)
    }
  }
  if (intent === 'password') {
    const submission = parseWithZod(formData, { schema: changePasswordForm })
    const hide = ['currentPassword', 'newPassword', 'confirmPassword']
    if (submission.status !== 'success')
      return data({ intent, result: submission.reply({ hideFields: hide }) }, { status: 400 })
    try {
      const session = await api.call(identityContract.changePassword, {
        body: {
          currentPassword: submission.value.currentPassword,
          newPassword: submission.value.newPassword,
        },
      })
      return redirect('/profile/account-settings?saved=password', {
        headers: { 'set-cookie': sessionCookie(context, request, session.token, session.expiresAt) },
      })
    } catch (error) {
      const reply = replyWithApiError(submission, error, ['currentPassword', 'newPassword'], {
        hideFields: hide,
      })
      return data({ intent, result: reply.data }, reply.init ?? undefined)
    }
  }
  const submission = parseWithZod(formData, { schema: changeEmailInput })
  if (submission.status !== 'success')
    return data({ intent, result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  try {
    await api.call(identityContract.changeEmail, {
      body: submission.value,
    })
    return redirect('/profile/account-settings?saved=email')
  } catch (error) {
    const reply = replyWithApiError(submission, error, ['newEmail', 'password'], { hideFields: ['password'] })
    return data({ intent, result: reply.data }, reply.init ?? undefined)
  }
}

type Details = Route.ComponentProps['loaderData']['details']
/** The action's last answer to one form, once the page is idle again. */
type LastResult = SubmissionResult<string[]> | undefined

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const navigation = useNavigation()
  const { details } = loaderData
  const idle = navigation.state === 'idle'
  const last = (intent: string): LastResult =>
    idle && actionData?.intent === intent ? (actionData.result as SubmissionResult<string[]>) : undefined
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('settings.title')}</h1>
      {loaderData.saved === 'email' ? <Notice kind="success">{t('settings.emailSent')}</Notice> : null}
      {loaderData.saved === 'profile' || loaderData.saved === 'password' ? (
        // docs/product.md §7's title for a successful PUT, and beneath it what happened.
        <Notice kind="success" title={t('settings.successOperation')}>
          {loaderData.saved === 'password' ? t('settings.savedPassword') : t('settings.savedProfile')}
        </Notice>
      ) : null}
      <AccountSummary details={details} />

      <ProfileDetailsSection details={details} lastResult={last('profile')} />

      <PasswordSection details={details} lastResult={last('password')} />

      <EmailSection details={details} lastResult={last('email')} />

      {/* Keyed on what is stored, so a save shows it as kept (the VAT id tidied) with JavaScript too. */}
      <InvoiceDetailsSection
        key={JSON.stringify(loaderData.invoiceDetails.details)}
        answer={loaderData.invoiceDetails}
        freelancer={details.accountType === 'freelancer'}
        saved={loaderData.saved === 'invoice-details'}
        lastResult={last('invoiceDetails')}
      />

      <TwoFactorSection />

      <Form method="post" action="/auth/logout" reloadDocument className="form-stack">
        <button type="submit" className="button" data-testid="logout">
          {t('menu.logout')}
        </button>
      </Form>
    </main>
  )
}

function AccountSummary({ details }: { details: Details }) {
  const { t } = useTranslation('auth')
  return (
    <dl className="summary" data-testid="account-summary">
      <dt>{t('fields.email')}</dt>
      <dd>{details.email}</dd>
      <dt>{t('settings.role')}</dt>
      <dd data-testid="account-role">{details.roles.map((r) => t(`roles.${r}`)).join(', ')}</dd>
      <dt>{t('settings.points')}</dt>
      <dd>
        {details.wengazPoint}
        <p className="muted small">
          {t('settings.pointsHow', {
            email: pointRules.emailVerified,
            phone: pointRules.phoneAdded,
            image: pointRules.imageAdded,
            profile: pointRules.profileComplete,
            contract: pointRules.contractCompleted,
            review: pointRules.fiveStarReview,
          })}
        </p>
      </dd>
      <dt>{t('settings.completeness')}</dt>
      <dd>{details.wengazPercentage}%</dd>
    </dl>
  )
}

function ProfileDetailsSection({ details, lastResult }: { details: Details; lastResult: LastResult }) {
  const { t } = useTranslation('auth')
  const errorText = useErrorText()
  const [profileForm, pf] = useForm({
    id: 'profile',
    lastResult,
    defaultValue: {
      firstName: details.firstName,
      lastName: details.lastName,
      phoneNumber: details.phoneNumber ?? '',
      companyName: details.companyName ?? '',
      language: details.language,
    },
  })
  const languageError = pf.language.errors?.[0]
  const selectProps = getSelectProps(pf.language)
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('settings.profileTitle')}</h2>
      <Form method="post" {...getFormProps(profileForm)} className="form-stack">
        <input type="hidden" name="intent" value="profile" />
        <FormErrors errors={profileForm.errors} id={profileForm.errorId} />
        <Field field={pf.firstName} label={t('fields.firstName')} autoComplete="given-name" />
        <Field field={pf.lastName} label={t('fields.lastName')} autoComplete="family-name" />
        {details.accountType === 'company' ? (
          <Field field={pf.companyName} label={t('fields.companyName')} autoComplete="organization" />
        ) : null}
        <Field field={pf.phoneNumber} label={t('fields.phoneOptional')} type="tel" autoComplete="tel" />
        <div className="field">
          <label htmlFor={pf.language.id}>{t('fields.language')}</label>
          <select {...selectProps} key={selectProps.key}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {t(`languages.${l}`)}
              </option>
            ))}
          </select>
          {languageError ? <p className="field-error">{errorText(languageError)}</p> : null}
        </div>
        <button type="submit" className="button button-primary">
          {t('settings.save')}
        </button>
      </Form>
    </section>
  )
}

function PasswordSection({ details, lastResult }: { details: Details; lastResult: LastResult }) {
  const { t } = useTranslation('auth')
  const [passwordForm, pw] = useForm({
    id: 'password',
    lastResult,
  })
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">{t('settings.passwordTitle')}</h2>
      {details.hasPassword ? (
        <Form method="post" {...getFormProps(passwordForm)} className="form-stack">
          <input type="hidden" name="intent" value="password" />
          <FormErrors errors={passwordForm.errors} id={passwordForm.errorId} />
          <Field
            field={pw.currentPassword}
            label={t('fields.currentPassword')}
            type="password"
            autoComplete="current-password"
          />
          <Field
            field={pw.newPassword}
            label={t('fields.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('passwordPolicy', { min: PASSWORD_MIN })}
          />
          <Field
            field={pw.confirmPassword}
            label={t('fields.confirmPassword')}
            type="password"
            autoComplete="new-password"
          />
          <button type="submit" className="button">
            {t('settings.changePassword')}
          </button>
        </Form>
      ) : (
        <p>{t('settings.noPassword')}</p>
      )}
    </section>
  )
}

function EmailSection({ details, lastResult }: { details: Details; lastResult: LastResult }) {
  const { t } = useTranslation('auth')
  const [emailForm, em] = useForm({
    id: 'email',
    lastResult,
  })
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">{t('settings.emailTitle')}</h2>
      {details.pendingEmail ? <p>{t('settings.pendingEmail', { email: details.pendingEmail })}</p> : null}
      <Form method="post" {...getFormProps(emailForm)} className="form-stack">
        <input type="hidden" name="intent" value="email" />
        <FormErrors errors={emailForm.errors} id={emailForm.errorId} />
        <Field field={em.newEmail} label={t('fields.newEmail')} type="email" autoComplete="email" />
        {details.hasPassword ? (
          <Field
            field={em.password}
            label={t('fields.currentPassword')}
            type="password"
            autoComplete="current-password"
          />
        ) : null}
        <button type="submit" className="button">
          {t('settings.changeEmail')}
        </button>
      </Form>
    </section>
  )
}

function TwoFactorSection() {
  const { t } = useTranslation('security')
  return (
    <section aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">{t('settings.link')}</h2>
      <p>{t('settings.linkLead')}</p>
      <Link to="/profile/account-settings/two-factor" className="button">
        {t('settings.link')}
      </Link>
    </section>
  )
}
