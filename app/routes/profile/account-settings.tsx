import type { SubmissionResult } from '@conform-to/react'
import { inputProps, useReplyForm } from '~/components/ui/reply-form'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, Form, Link } from 'react-router'
import type { Route } from './+types/account-settings'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { changePasswordForm } from '~/lib/auth-forms'
import { changeEmailInput, profileInput } from '#server/modules/identity/inputs.ts'
import { languages } from '#server/modules/identity/choices.ts'
import { languageCookieHeader, requirePermission, sessionCookie } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { CurrentPassword, Field, Notice, ReplyPostForm, useErrorText } from '~/components/auth/form'
import { identityContract } from '#server/modules/identity/contract.ts'
import { PASSWORD_MIN } from '#server/modules/identity/password-policy.ts'
import { pointRules } from '#server/modules/identity/rules.ts'
import { invoiceDetailsInput } from '#server/modules/payments/invoice-details-contract.ts'
import { InvoiceDetailsSection } from './invoice-details'
import { loadInvoiceDetails, saveInvoiceDetails } from './invoice-details.server'
import { DataExportSection, wordDataExport } from './data-export-section'
import { loadDataExport, requestDataExport } from './data-export.server'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'account.settings')
  const [details, invoiceDetails, dataExport] = await Promise.all([
    apiFor(context).call(identityContract.profileDetails),
    loadInvoiceDetails(context),
    loadDataExport(context),
  ])
  const words = wordsFor(getLocale(context))
  wordDataExport(words, dataExport)
  return {
    details,
    invoiceDetails,
    dataExport,
    words: words.words,
    saved: url.searchParams.get('saved'),
    exportGone: url.searchParams.get('export') === 'gone',
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
  if (intent === 'dataExport') return requestDataExport(context)
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
/** The action's last answer to one form. */
type LastResult = SubmissionResult<string[]> | undefined

export default function AccountSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  const { details } = loaderData
  // The reply stays while a new post is on its way, so the form does not empty itself meanwhile.
  const last = (intent: string): LastResult =>
    actionData?.intent === intent && 'result' in actionData
      ? (actionData.result as SubmissionResult<string[]>)
      : undefined
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

      <DataExportSection
        state={loaderData.dataExport}
        notice={loaderData.saved === 'data-export' ? 'requested' : loaderData.exportGone ? 'gone' : null}
        refused={actionData && 'refused' in actionData ? actionData.refused : undefined}
      />
      {details.accountType === 'freelancer' || details.accountType === 'company' ? (
        <VerificationSection />
      ) : null}

      <section aria-labelledby="close-heading">
        <h2 id="close-heading">{t('close.title')}</h2>
        <p>{t('close.sectionText')}</p>
        <Link to="/profile/account-settings/close" className="button">
          {t('close.link')}
        </Link>
      </section>

      <Form method="post" action="/auth/logout" reloadDocument className="form-stack">
        <button type="submit" className="button" data-testid="logout">
          {t('menu.logout')}
        </button>
      </Form>
    </main>
  )
}

/** Verified identity (decision 332): freelancers and companies ask from their own page. */
function VerificationSection() {
  const { t } = useTranslation('verification')
  return (
    <section aria-labelledby="verification-heading">
      <h2 id="verification-heading">{t('settings.title')}</h2>
      <p>{t('settings.text')}</p>
      <Link to="/profile/verification" className="button">
        {t('settings.link')}
      </Link>
    </section>
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
  const form = useReplyForm(lastResult, 'profile', {
    firstName: details.firstName,
    lastName: details.lastName,
    phoneNumber: details.phoneNumber ?? '',
    companyName: details.companyName ?? '',
    language: details.language,
  })
  const language = form.field('language')
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('settings.profileTitle')}</h2>
      <ReplyPostForm form={form} id="profile" intent="profile">
        <Field field={form.field('firstName')} label={t('fields.firstName')} autoComplete="given-name" />
        <Field field={form.field('lastName')} label={t('fields.lastName')} autoComplete="family-name" />
        {details.accountType === 'company' ? (
          <Field
            field={form.field('companyName')}
            label={t('fields.companyName')}
            autoComplete="organization"
          />
        ) : null}
        <Field
          field={form.field('phoneNumber')}
          label={t('fields.phoneOptional')}
          type="tel"
          autoComplete="tel"
        />
        <div className="field">
          <label htmlFor={language.id}>{t('fields.language')}</label>
          <select {...inputProps(language)}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {t(`languages.${l}`)}
              </option>
            ))}
          </select>
          {language.error ? (
            <p className="field-error" id={language.errorId}>
              {errorText(language.error)}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-primary">
          {t('settings.save')}
        </button>
      </ReplyPostForm>
    </section>
  )
}

function PasswordSection({ details, lastResult }: { details: Details; lastResult: LastResult }) {
  const { t } = useTranslation('auth')
  const form = useReplyForm(lastResult, 'password')
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">{t('settings.passwordTitle')}</h2>
      {details.hasPassword ? (
        <ReplyPostForm form={form} id="password" intent="password">
          <CurrentPassword field={form.field('currentPassword')} label={t('fields.currentPassword')} />
          <Field
            field={form.field('newPassword')}
            label={t('fields.newPassword')}
            type="password"
            autoComplete="new-password"
            hint={t('passwordPolicy', { min: PASSWORD_MIN })}
          />
          <Field
            field={form.field('confirmPassword')}
            label={t('fields.confirmPassword')}
            type="password"
            autoComplete="new-password"
          />
          <button type="submit" className="button">
            {t('settings.changePassword')}
          </button>
        </ReplyPostForm>
      ) : (
        <p>{t('settings.noPassword')}</p>
      )}
    </section>
  )
}

function EmailSection({ details, lastResult }: { details: Details; lastResult: LastResult }) {
  const { t } = useTranslation('auth')
  const form = useReplyForm(lastResult, 'email')
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">{t('settings.emailTitle')}</h2>
      {details.pendingEmail ? <p>{t('settings.pendingEmail', { email: details.pendingEmail })}</p> : null}
      <ReplyPostForm form={form} id="email" intent="email">
        <Field
          field={form.field('newEmail')}
          label={t('fields.newEmail')}
          type="email"
          autoComplete="email"
        />
        {details.hasPassword ? (
          <CurrentPassword field={form.field('password')} label={t('fields.currentPassword')} />
        ) : null}
        <button type="submit" className="button">
          {t('settings.changeEmail')}
        </button>
      </ReplyPostForm>
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
