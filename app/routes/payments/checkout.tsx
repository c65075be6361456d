import { redirect, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/checkout'
import { apiFor } from '~/lib/api.server'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { TextField, type FieldReply } from '~/components/ui/field'
import { paymentsContract as c } from '#server/modules/payments/contract.ts'
import { testCards } from '#server/modules/payments/gateways/test-cards.ts'
import { hostedSession, refusedFields } from './hosted-page.server'

// /checkout/{token}: the sandbox gateway's hosted checkout (decision 171). It stands where a real
// gateway's page would: the client's browser comes here from Payment/PayProjectInstallments and
// goes back to the project when the gateway has confirmed. Plain forms, so it works without
// JavaScript; the outcome is the gateway's (the card number decides it), never the page's.
const cardFields = ['cardNumber', 'expiry', 'cvc', 'name'] as const

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = await hostedSession(
    context,
    (api) => api.call(c.sandboxSession, { params: { token: params.token } }),
    'payments:checkout.title',
  )
  const words = wordsFor(getLocale(context))
  words.money(page.session.totalMinor, page.session.currency)
  return { ...page, words: words.words }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData()
  const api = apiFor(context)
  try {
    const session =
      form.get('intent') === 'confirm'
        ? await api.call(c.sandboxConfirm, {
            params: { token: params.token },
            body: { approve: form.get('approve') === 'yes' },
          })
        : await api.call(c.sandboxPay, {
            params: { token: params.token },
            body: {
              ...Object.fromEntries(cardFields.map((f) => [f, String(form.get(f) ?? '')])),
              save: form.get('save') === 'yes',
            },
          })
    return redirect(
      session.status === 'succeeded' ? `${session.returnUrl}?paid=1` : `/checkout/${params.token}`,
    )
  } catch (error) {
    // Each field's own message, in the page's language; the card number and code are never echoed.
    return refusedFields(error, cardFields, 'checkout.errors', {
      expiry: String(form.get('expiry') ?? ''),
      name: String(form.get('name') ?? ''),
    })
  }
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('payments')
  const s = loaderData.session
  const total = useWords().money(s.totalMinor, s.currency)
  const reply = actionData && 'error' in actionData ? actionData : null
  const notice = actionData && 'notice' in actionData ? (actionData.notice as string) : null
  const back = <ButtonLink to={s.returnUrl}>{t('checkout.return')}</ButtonLink>
  return (
    <main id="main" className="container page checkout" data-testid="checkout">
      <h1>{t('checkout.title')}</h1>
      <p className="lead">{t('checkout.lead')}</p>
      {notice ? <Notice kind="error">{notice}</Notice> : null}
      <Card
        title={t('checkout.payee', { title: s.projectTitle })}
        titleId="checkout-payee"
        level={2}
        as="section"
      >
        <DefinitionList
          items={[
            [
              t('checkout.total'),
              <strong key="total" data-testid="checkout-total">
                {total}
              </strong>,
            ],
          ]}
        />
      </Card>
      <SessionStatus session={s} />
      {s.status === 'requires_action' ? <ConfirmCard total={total} /> : null}
      {s.status === 'open' || s.status === 'failed' ? (
        <CardForm total={total} reply={reply} back={back} />
      ) : (
        <ButtonGroup>{back}</ButtonGroup>
      )}
    </main>
  )
}

type Session = Route.ComponentProps['loaderData']['session']

/** Where the session stands once the gateway has answered: paid, cancelled or declined (and why). */
function SessionStatus({ session: s }: { session: Session }) {
  const { t } = useTranslation('payments')
  return (
    <>
      {s.status === 'succeeded' ? (
        <Notice kind="success">{t('checkout.succeeded')}</Notice>
      ) : s.status === 'cancelled' ? (
        <Notice kind="warning">{t('checkout.cancelled')}</Notice>
      ) : null}
      {s.status === 'failed' ? (
        <Notice kind="error" data-testid="checkout-declined">
          {t('checkout.declined', {
            reason: t(`checkout.reasons.${s.failure ?? 'failed'}`, {
              defaultValue: t('checkout.reasons.failed'),
            }),
          })}
        </Notice>
      ) : null}
    </>
  )
}

/** The gateway asks the client to confirm the payment (a 3-D Secure step). */
function ConfirmCard({ total }: { total: string }) {
  const { t } = useTranslation('payments')
  return (
    <Card title={t('checkout.confirmTitle')} titleId="checkout-confirm" level={2} as="section">
      <p>{t('checkout.confirmLead', { total })}</p>
      <ButtonGroup>
        <Form method="post">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="approve" value="yes" />
          <Button variant="primary">{t('checkout.approve')}</Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="confirm" />
          <input type="hidden" name="approve" value="no" />
          <Button>{t('checkout.decline')}</Button>
        </Form>
      </ButtonGroup>
    </Card>
  )
}

/** The card form, and the sandbox's test cards with what each does. */
function CardForm({
  total,
  reply,
  back,
}: {
  total: string
  reply: FieldReply | null
  back: React.ReactNode
}) {
  const { t } = useTranslation('payments')
  return (
    <Card title={t('checkout.card')} titleId="checkout-card" level={2} as="section">
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="pay" />
        <TextField
          name="cardNumber"
          label={t('checkout.cardNumber')}
          ns="payments"
          reply={reply}
          autoComplete="cc-number"
          required
          maxLength={23}
        />
        <TextField
          name="expiry"
          label={t('checkout.expiry')}
          ns="payments"
          reply={reply}
          autoComplete="cc-exp"
          required
          maxLength={7}
        />
        <TextField
          name="cvc"
          label={t('checkout.cvc')}
          ns="payments"
          reply={reply}
          autoComplete="cc-csc"
          required
          maxLength={4}
        />
        <TextField
          name="name"
          label={t('checkout.name')}
          ns="payments"
          reply={reply}
          autoComplete="cc-name"
          required
          maxLength={100}
        />
        <label className="checkbox">
          <input type="checkbox" name="save" value="yes" /> {t('checkout.save')}
        </label>
        <ButtonGroup>
          <Button variant="primary">{t('checkout.submit', { total })}</Button>
          {back}
        </ButtonGroup>
      </Form>
      <h3>{t('checkout.testCards')}</h3>
      <ul data-testid="test-cards">
        {(Object.keys(testCards) as Array<keyof typeof testCards>).map((k) => (
          <li key={k}>
            <code>{testCards[k].replace(/(\d{4})(?=\d)/g, '$1 ')}</code> {t(`checkout.cards.${k}`)}
          </li>
        ))}
      </ul>
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
