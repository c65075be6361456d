import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect } from 'react-router'
import type { Route } from './+types/peyment-details'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { successOperation } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { profilesContract as pc, type PaymentMethod } from '#server/modules/profiles/contract.ts'
import { paymentsContract as payc } from '#server/modules/payments/contract.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { limits } from '#server/modules/profiles/rules.ts'
import { itemIdOf, paymentForms } from './profile/forms.server'
import { Input, SectionForm, type ActionResult } from './profile/fields'
import stylesheet from './profile/profile.css?url'
import { titled } from '~/lib/meta'
import { formFields, unconfirmed } from '~/lib/confirm.server'
import { ConfirmStep } from '~/components/ui/confirm'
import { PayoutAccountCard } from './profile/payout-account'

// Payment Details (docs/product.md §2 spells the path /peyment-details; /payment-details redirects here).
// A freelancer keeps where payouts go: bank accounts (IBAN checked by its checksum), PayPal
// addresses and the payout account the gateway opens for them through its hosted onboarding
// (decision 333), one of them the default, always shown masked.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requirePermission(context, url, 'payments.details')
  const title = getInstance(context).t('profile:payments.title')
  if (!user.roles.includes(Role.Freelancer))
    return { title, freelancer: false, methods: [] as PaymentMethod[], account: null, returned: null }
  const api = apiFor(context)
  const [{ data: methods }, account] = await Promise.all([
    api.call(pc.paymentList, { params: { id: user.id } }),
    api.call(payc.payoutAccount),
  ])
  // The gateway's onboarding sends the browser back here: done or given up, or its link expired.
  const back = url.searchParams.get('onboarding')
  const returned: 'return' | 'refresh' | null = back === 'return' || back === 'refresh' ? back : null
  return { title, freelancer: true, methods, account, returned }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requirePermission(context, url, 'payments.details')
  const i18n = getInstance(context)
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  const formId = String(formData.get('formId') ?? intent).slice(0, 60)
  const api = apiFor(context)
  // Set up payouts: the gateway opens the account once and its hosted onboarding takes over.
  if (intent === 'onboard') return redirect((await api.call(payc.payoutOnboarding)).url)
  const schema =
    intent === 'bank'
      ? paymentForms.bank
      : intent === 'paypal'
        ? paymentForms.paypal
        : intent === 'update'
          ? paymentForms.update
          : intent === 'status'
            ? paymentForms.status
            : null
  if (!schema)
    return data(
      { formId, result: { status: 'error', error: { '': ['errors.unknownForm'] } } } satisfies ActionResult,
      { status: 400 },
    )
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success')
    return data({ formId, result: submission.reply() } satisfies ActionResult, { status: 400 })
  const v = submission.value as Record<string, any>
  // Where payouts go is money's way out: adding or changing it, making it the default or removing
  // it is done from a confirmation step that names the account (decision 310).
  if (unconfirmed('paymentMethod', intent === 'status' ? String(v.change) : intent, formData)) {
    const question = await methodQuestion(api, i18n.t, intent, v, user.id, itemIdOf(formData) ?? 0)
    return { formId, confirm: { question, fields: formFields(formData) } }
  }
  try {
    await sendPaymentForm(api, intent, submission.value as Record<string, any>, formData)
  } catch (error) {
    const reply = replyWithApiError(submission, error, ['holderName', 'iban', 'bic', 'bankName', 'email'])
    return data({ formId, result: reply.data } as ActionResult, reply.init ?? undefined)
  }
  return successOperation('/peyment-details', i18n.t)
}

/** What a payout-method form will do, in the freelancer's words, naming the account (masked as the page shows it). */
async function methodQuestion(
  api: ReturnType<typeof apiFor>,
  t: ReturnType<typeof getInstance>['t'],
  intent: string,
  v: Record<string, any>,
  userId: number,
  itemId: number,
) {
  if (intent === 'bank' || intent === 'paypal') {
    const where =
      intent === 'bank'
        ? `${t('payouts:kind.bank')} •••• ${String(v.iban).replace(/\s/g, '').slice(-4)}`
        : `${t('payouts:kind.paypal')} · ${v.email}`
    return t(v.makeDefault ? 'payouts:method.addDefault' : 'payouts:method.add', {
      destination: where,
      name: v.holderName,
    })
  }
  // An update names its method by the form's item id, a state change by its own `id` field.
  const id = intent === 'update' ? itemId : Number(v.id)
  const { data: methods } = await api.call(pc.paymentList, { params: { id: userId } })
  const m = methods.find((x) => x.id === id)
  const destination = m ? `${t(`payouts:kind.${m.kind}`)} ${m.masked}` : ''
  return t(`payouts:method.${intent === 'update' ? 'update' : v.change}`, { destination })
}

/** The API call of each form: add a method of a kind, update one, or change its state (default, active, deleted). */
async function sendPaymentForm(
  api: ReturnType<typeof apiFor>,
  intent: string,
  v: Record<string, any>,
  formData: FormData,
) {
  if (intent === 'bank' || intent === 'paypal') await api.call(pc.paymentAdd, { body: v as never })
  else if (intent === 'update')
    await api.call(pc.paymentUpdate, { params: { id: itemIdOf(formData) ?? 0 }, body: v as never })
  else if (v.change === 'delete') await api.call(pc.paymentDelete, { params: { id: v.id } })
  else
    await api.call(pc.paymentStatus, {
      params: { id: v.id },
      body:
        v.change === 'default'
          ? { isDefault: true }
          : { status: v.change === 'activate' ? 'active' : 'inactive' },
    })
}

export default function PaymentDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['profile', 'stripe', 'payouts'])
  const step = actionData && 'confirm' in actionData ? actionData.confirm : null
  const last = (step ? null : (actionData ?? null)) as ActionResult | null
  if (step)
    return (
      <main id="main" className="container page">
        <h1>{t('payments.title')}</h1>
        <ConfirmStep
          question={step.question}
          yes={t('payouts:method.yes')}
          fields={step.fields}
          back="/peyment-details"
        />
      </main>
    )
  if (!loaderData.freelancer) {
    return (
      <main id="main" className="container page">
        <h1>{t('payments.title')}</h1>
        <p>{t('payments.clientNote')}</p>
      </main>
    )
  }
  return (
    <main id="main" className="container page">
      <h1>{t('payments.title')}</h1>
      <p className="lead">{t('payments.lead')}</p>
      {loaderData.account ? (
        <PayoutAccountCard account={loaderData.account} returned={loaderData.returned} />
      ) : null}
      {loaderData.methods.length ? (
        <ul className="payment-list">
          {loaderData.methods.map((m) => (
            <PaymentMethodItem key={m.id} m={m} last={last} />
          ))}
        </ul>
      ) : (
        <p className="muted">{t('payments.none')}</p>
      )}
      <div className="details-grid">
        <AddBank last={last} />
        <AddPaypal last={last} />
      </div>
    </main>
  )
}

/** A method, masked, with its state and the buttons that change it, and its edit form. */
function PaymentMethodItem({ m, last }: { m: PaymentMethod; last: ActionResult | null }) {
  const { t } = useTranslation(['profile', 'stripe'])
  return (
    <li className="card payment" data-testid="payment-method">
      <div className="payment-head">
        <strong>{m.kind === 'stripe_account' ? t('stripe:kind') : t(`payments.kind.${m.kind}`)}</strong>
        <span className="masked">{m.masked}</span>
        <span>{m.holderName}</span>
        {m.isDefault ? <span className="pill pill-default">{t('payments.default')}</span> : null}
        {m.status === 'inactive' ? (
          <span className="pill pill-inactive">{t('payments.inactive')}</span>
        ) : null}
      </div>
      <div className="inline-form">
        {!m.isDefault && m.status === 'active' ? (
          <StatusButton m={m} change="default" label={t('payments.makeDefault')} last={last} />
        ) : null}
        {m.status === 'active' ? (
          <StatusButton m={m} change="deactivate" label={t('payments.deactivate')} last={last} />
        ) : (
          <StatusButton m={m} change="activate" label={t('payments.activate')} last={last} />
        )}
        {m.kind === 'stripe_account' ? null : (
          <StatusButton m={m} change="delete" label={t('actions.remove')} last={last} />
        )}
      </div>
      <EditMethod m={m} last={last} />
    </li>
  )
}

function EditMethod({ m, last }: { m: PaymentMethod; last: ActionResult | null }) {
  const { t } = useTranslation(['profile', 'stripe'])
  return (
    <details open={last?.formId === `update-${m.id}`}>
      <summary>{t('actions.edit')}</summary>
      <SectionForm
        id={`update-${m.id}`}
        intent="update"
        lastResult={last}
        defaultValue={{ holderName: m.holderName, bic: m.bic ?? '', bankName: m.bankName ?? '' }}
        submit={t('actions.save')}
      >
        {(x) => (
          <>
            <input type="hidden" name="id" value={m.id} />
            <Input field={x.holderName} label={t('payments.holderName')} maxLength={limits.name} />
            {m.kind === 'bank' ? (
              <div className="field-row">
                <Input
                  field={x.iban}
                  label={t('payments.iban')}
                  hint={t('payments.keepIban')}
                  maxLength={limits.iban}
                />
                <Input field={x.bic} label={t('payments.bic')} maxLength={limits.bic} />
                <Input field={x.bankName} label={t('payments.bankName')} maxLength={limits.name} />
              </div>
            ) : m.kind === 'stripe_account' ? null : (
              <Input
                field={x.email}
                label={t('payments.email')}
                type="email"
                hint={t('payments.keepEmail')}
                maxLength={limits.email}
              />
            )}
          </>
        )}
      </SectionForm>
    </details>
  )
}

type Fields = Parameters<NonNullable<React.ComponentProps<typeof SectionForm>['children']>>[0]

/** One "add a payout method" card: the holder's name, the kind's own fields, and "make default". */
function AddMethod({
  intent,
  kind,
  title,
  lead,
  last,
  children,
}: {
  intent: 'bank' | 'paypal'
  kind: string
  title: string
  lead?: string
  last: ActionResult | null
  children: (x: Fields) => React.ReactNode
}) {
  const { t } = useTranslation(['profile', 'stripe'])
  return (
    <section className="card profile-section" aria-labelledby={`add-${intent}`}>
      <h2 id={`add-${intent}`}>{title}</h2>
      {lead ? <p className="muted">{lead}</p> : null}
      <SectionForm id={intent} intent={intent} lastResult={last} submit={t('actions.add')}>
        {(x) => (
          <>
            <input type="hidden" name="kind" value={kind} />
            <Input
              field={x.holderName}
              label={t('payments.holderName')}
              maxLength={limits.name}
              autoComplete="name"
            />
            {children(x)}
            <label className="checkbox">
              <input type="checkbox" name="makeDefault" /> {t('payments.makeDefault')}
            </label>
          </>
        )}
      </SectionForm>
    </section>
  )
}

function AddBank({ last }: { last: ActionResult | null }) {
  const { t } = useTranslation('profile')
  return (
    <AddMethod intent="bank" kind="bank" title={t('payments.addBank')} last={last}>
      {(x) => (
        <>
          <Input field={x.iban} label={t('payments.iban')} maxLength={limits.iban} />
          <Input field={x.bic} label={t('payments.bic')} maxLength={limits.bic} />
          <Input field={x.bankName} label={t('payments.bankName')} maxLength={limits.name} />
        </>
      )}
    </AddMethod>
  )
}

function AddPaypal({ last }: { last: ActionResult | null }) {
  const { t } = useTranslation('profile')
  return (
    <AddMethod intent="paypal" kind="paypal" title={t('payments.addPaypal')} last={last}>
      {(x) => <Input field={x.email} label={t('payments.email')} type="email" maxLength={limits.email} />}
    </AddMethod>
  )
}

function StatusButton({
  m,
  change,
  label,
  last,
}: {
  m: PaymentMethod
  change: string
  label: string
  last: ActionResult | null
}) {
  return (
    <SectionForm
      id={`status-${change}-${m.id}`}
      intent="status"
      lastResult={last}
      submit={label}
      danger={change === 'delete'}
      className="inline-form"
    >
      {() => (
        <>
          <input type="hidden" name="id" value={m.id} />
          <input type="hidden" name="change" value={change} />
        </>
      )}
    </SectionForm>
  )
}
