import type { SubmissionResult } from '@conform-to/react'
import { useReplyForm } from '~/components/ui/reply-form'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/two-factor'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { codeInput, disableSecondFactorInput } from '#server/modules/identity/inputs.ts'
import { recoveryCodesCookie, SETUP_PAGE, takeRecoveryCodes } from '~/lib/second-factor.server'
import { requirePermission, secureCookies, sessionCookie } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { CurrentPassword, Field, ReplyPostForm } from '~/components/auth/form'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { identityContract } from '#server/modules/identity/contract.ts'
import { titled } from '~/lib/meta'

// Account settings › two-factor sign-in (decision 260): set up an authenticator app (QR code drawn
// on the server, and the secret as text), confirm it with a code, keep the ten recovery codes
// shown once, or turn it off with the password and a code. A SuperAdmin must have it: a session
// of theirs without it is sent here before anything else, and cannot turn it off.
export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'account.settings')
  const status = await apiFor(context).call(identityContract.secondFactor)
  const { codes, clear } = takeRecoveryCodes(request)
  const body = {
    status,
    recoveryCodes: codes,
    changed: url.searchParams.get('changed'),
    title: getInstance(context).t('security:settings.title'),
  }
  return clear ? data(body, { headers: { 'set-cookie': clear } }) : body
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'account.settings')
  const formData = await request.formData()
  const intent = String(formData.get('intent'))
  const api = apiFor(context)
  if (intent === 'setup') {
    await api.call(identityContract.secondFactorSetup)
    return redirect(SETUP_PAGE)
  }
  if (intent === 'enable') {
    const submission = parseWithZod(formData, { schema: codeInput })
    if (submission.status !== 'success')
      return data({ intent, result: submission.reply({ hideFields: ['code'] }) }, { status: 400 })
    try {
      const result = await api.call(identityContract.secondFactorEnable, {
        body: submission.value,
      })
      // Every session ended with the old one; this browser carries on with the new one.
      const headers = new Headers({
        'set-cookie': sessionCookie(context, request, result.token, result.expiresAt),
      })
      headers.append('set-cookie', recoveryCodesCookie(result.recoveryCodes, secureCookies(context, request)))
      return redirect(`${SETUP_PAGE}?changed=on`, { headers })
    } catch (error) {
      return codeReply(intent, submission, error)
    }
  }
  const submission = parseWithZod(formData, { schema: disableSecondFactorInput })
  if (submission.status !== 'success')
    return data(
      { intent: 'disable', result: submission.reply({ hideFields: ['code', 'password'] }) },
      { status: 400 },
    )
  try {
    await api.call(identityContract.secondFactorDisable, { body: submission.value })
    return redirect(`${SETUP_PAGE}?changed=off`)
  } catch (error) {
    return codeReply('disable', submission, error)
  }
}

function codeReply(intent: string, submission: Parameters<typeof replyWithApiError>[0], error: unknown) {
  const reply = replyWithApiError(submission, error, ['code', 'password'], {
    hideFields: ['code', 'password'],
  })
  const result = reply.data as { error?: Record<string, string[] | null> }
  if (result.error?.code) result.error.code = ['security:errors.wrongCode']
  if (result.error?.password) result.error.password = ['security:errors.wrongPassword']
  return data({ intent, result: reply.data }, reply.init ?? undefined)
}

type Status = Route.ComponentProps['loaderData']['status']
/** The action's last answer to one form. */
type LastResult = SubmissionResult<string[]> | undefined

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('security')
  const { status, recoveryCodes } = loaderData
  const last = (intent: string): LastResult =>
    actionData?.intent === intent ? (actionData.result as SubmissionResult<string[]>) : undefined
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('settings.title')}</h1>
      <p className="lead">{t('settings.lead')}</p>
      {status.required && !status.enabled ? (
        <Notice kind="error" title={t('settings.requiredTitle')}>
          {t('settings.required')}
        </Notice>
      ) : null}
      {loaderData.changed === 'off' ? <Notice kind="success">{t('settings.turnedOff')}</Notice> : null}
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      <DefinitionList
        items={[
          [
            t('settings.state'),
            <span data-testid="two-factor-state">
              {status.enabled ? t('settings.on') : t('settings.off')}
            </span>,
          ],
          [t('settings.codesLeft'), status.enabled ? String(status.recoveryCodesLeft) : null],
        ]}
      />

      {!status.enabled && !status.setup ? (
        <Form method="post">
          <input type="hidden" name="intent" value="setup" />
          <Button variant="primary">{t('settings.start')}</Button>
        </Form>
      ) : null}

      {!status.enabled && status.setup ? (
        <SetupCard setup={status.setup} lastResult={last('enable')} />
      ) : null}

      {status.enabled && !status.required ? <DisableCard lastResult={last('disable')} /> : null}
      {status.required && !status.enabled ? (
        <Form method="post" action="/auth/logout" reloadDocument>
          <Button>{t('settings.signOut')}</Button>
        </Form>
      ) : (
        <p>
          <ButtonLink to="/profile/account-settings">{t('settings.back')}</ButtonLink>
        </p>
      )}
    </main>
  )
}

/** The ten recovery codes, shown once, right after two-factor sign-in was turned on. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('security')
  return (
    <Card
      title={t('recovery.title')}
      titleId="recovery-title"
      level={2}
      as="section"
      data-testid="recovery-codes"
    >
      <Notice kind="success">{t('settings.turnedOn')}</Notice>
      <p>{t('recovery.lead')}</p>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </Card>
  )
}

function SetupCard({ setup, lastResult }: { setup: NonNullable<Status['setup']>; lastResult: LastResult }) {
  const { t } = useTranslation('security')
  const form = useReplyForm(lastResult, 'enable')
  return (
    <Card title={t('setup.title')} titleId="setup-title" level={2} as="section">
      <ol>
        <li>{t('setup.scan')}</li>
        <li>{t('setup.confirm')}</li>
      </ol>
      {/* Drawn by the server from the otpauth address (the qrcode library): no script, no request elsewhere. */}
      <div
        className="qr-code"
        role="img"
        aria-label={t('setup.qrLabel')}
        dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
      />
      <p>
        {t('setup.typeInstead')} <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <ReplyPostForm form={form} id="enable" intent="enable">
        <Field field={form.field('code')} label={t('fields.code')} autoComplete="one-time-code" />
        <Button variant="primary">{t('setup.submit')}</Button>
      </ReplyPostForm>
    </Card>
  )
}

function DisableCard({ lastResult }: { lastResult: LastResult }) {
  const { t } = useTranslation('security')
  const form = useReplyForm(lastResult, 'disable')
  return (
    <Card title={t('disable.title')} titleId="disable-title" level={2} as="section">
      <ReplyPostForm form={form} id="disable" intent="disable">
        <CurrentPassword field={form.field('password')} label={t('fields.password')} />
        <Field field={form.field('code')} label={t('fields.codeOrRecovery')} autoComplete="one-time-code" />
        <Button>{t('disable.submit')}</Button>
      </ReplyPostForm>
    </Card>
  )
}
