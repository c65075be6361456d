import { data, redirect, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/onboarding'
import { apiFor } from '~/lib/api.server'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Notice } from '~/components/ui/notice'
import { TextField } from '~/components/ui/field'
import { paymentsContract as c } from '#server/modules/payments/contract.ts'
import { failingPayoutDestinations } from '#server/modules/payments/gateways/test-cards.ts'
import { hostedSession, refusedFields } from './hosted-page.server'

// /onboarding/{account}: the sandbox gateway's hosted onboarding (decision 333), where Stripe's
// would be. The freelancer's browser comes here from "Set up payouts" and goes back to Payment
// Details, finished or not; the account's status is the gateway's answer, never the page's.
const fields = ['name', 'iban'] as const
/** Where the gateway sends the browser back, finished or not (as Stripe's return_url). */
const BACK = '/peyment-details?onboarding=return'

export const loader = ({ context, params }: Route.LoaderArgs) =>
  hostedSession(
    context,
    (api) => api.call(c.sandboxAccount, { params: { account: params.account } }),
    'stripe:onboarding.title',
  )

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData()
  try {
    const session = await apiFor(context).call(c.sandboxOnboard, {
      params: { account: params.account },
      body: Object.fromEntries(fields.map((f) => [f, String(form.get(f) ?? '')])),
    })
    // Refused by the sandbox's bank: the page asks for another IBAN.
    if (session.status !== 'enabled') return data({ notice: 'refused' as const }, { status: 409 })
    return redirect(BACK)
  } catch (error) {
    // The IBAN is never echoed.
    return refusedFields(error, fields, 'onboarding.errors', { name: String(form.get('name') ?? '') })
  }
}

export default function Onboarding({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('stripe')
  const s = loaderData.session
  const reply = actionData && 'error' in actionData ? actionData : null
  const refusedByBank = actionData && 'notice' in actionData && actionData.notice === 'refused'
  return (
    <main id="main" className="container page checkout" data-testid="onboarding">
      <h1>{t('onboarding.title')}</h1>
      <p className="lead">{t('onboarding.lead')}</p>
      {refusedByBank ? <Notice kind="error">{t('onboarding.refused')}</Notice> : null}
      {s.status === 'enabled' ? (
        <>
          <Notice kind="success">{t('onboarding.enabled')}</Notice>
          <ButtonGroup>
            <ButtonLink to={BACK}>{t('onboarding.toDetails')}</ButtonLink>
          </ButtonGroup>
        </>
      ) : (
        <Card title={t('title')} titleId="onboarding-account" level={2} as="section">
          <Form method="post" noValidate>
            {fields.map((f) => (
              <TextField
                key={f}
                name={f}
                label={t(`onboarding.${f}`)}
                ns="stripe"
                reply={reply}
                autoComplete={f === 'name' ? 'name' : 'off'}
                required
                maxLength={f === 'name' ? 100 : 42}
              />
            ))}
            <p className="field-hint">
              {t('onboarding.ibanHint', {
                failing: failingPayoutDestinations.iban.replace(/(.{4})(?=.)/g, '$1 '),
              })}
            </p>
            <ButtonGroup>
              <Button variant="primary">{t('onboarding.submit')}</Button>
              <ButtonLink to={BACK}>{t('onboarding.back')}</ButtonLink>
            </ButtonGroup>
          </Form>
        </Card>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
