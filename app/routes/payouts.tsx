import { parseWithZod } from '@conform-to/zod/v4'
import { z } from 'zod'
import { data, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/payouts'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { currencyDigits, formatMoney } from '~/lib/format'
import { useWords, wordsFor, type Wording } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Field, ReplyPostForm } from '~/components/auth/form'
import type { FieldReply } from '~/components/ui/field'
import { inputProps, useReplyForm, type ReplyFieldMeta } from '~/components/ui/reply-form'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { StatusChip } from '~/components/ui/status-chip'
import { ConfirmStep } from '~/components/ui/confirm'
import { paymentsContract as c } from '#server/modules/payments/contract.ts'
import type { ResultOf } from '#server/api/contract.ts'
import { profilesContract as pc } from '#server/modules/profiles/contract.ts'
import { Role } from '#server/modules/identity/permissions.ts'
import { Money } from './projects/ui'

// /payouts (docs/product.md §2, login required): a freelancer's available money per currency, the withdraw
// form (amount, currency, one of their active payment methods, the default chosen), the payout
// minimum, and their payouts with their state. A plain POST and a redirect: it works with
// JavaScript off; the outcome shows on the page it lands on. Amounts are typed in the currency's major unit and sent as minor units; the API
// checks them against the ledger (decision 185). The action alone parses the form: the schema is
// not exported, so the page's browser code drops it and zod with it (issue 38).
const payoutForm = z.object({
  amount: z
    .string({ error: 'payouts:errors.amount' })
    .trim()
    .regex(/^\d{1,10}([.,]\d{1,2})?$/, 'payouts:errors.amount'),
  currency: z.string({ error: 'payouts:errors.currency' }).regex(/^[A-Z]{3}$/, 'payouts:errors.currency'),
  paymentMethodId: z.coerce
    .number({ error: 'payouts:errors.method' })
    .int('payouts:errors.method')
    .positive('payouts:errors.method'),
})

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requirePermission(context, url, 'payments.details')
  const title = getInstance(context).t('payouts:title')
  const freelancer = user.roles.includes(Role.Freelancer)
  try {
    const api = apiFor(context)
    const [payouts, methods] = await Promise.all([
      api.call(c.payouts),
      freelancer ? api.call(pc.paymentList, { params: { id: user.id } }) : { data: [] },
    ])
    // A payout account the gateway has not enabled yet cannot be paid (decision 333): it is not offered.
    const usable = methods.data.filter((m) => m.status === 'active' && m.payoutsEnabled)
    const words = wordsFor(getLocale(context))
    minimumOf(words, payouts)
    for (const b of payouts.balances) words.money(b.availableMinor, b.currency)
    for (const p of payouts.data) payoutTexts(words, p)
    return { title, freelancer, ...payouts, methods: usable, words: words.words }
  } catch (error) {
    throwApiError(error)
  }
}

/** The API's refusal of a field, as a text of this page (its own words are English). */
function fieldErrors(error: ApiCallError) {
  const errors = (typeof error.problem === 'object' ? error.problem?.errors : undefined) as
    Record<string, string[]> | undefined
  const amount = errors?.amountMinor?.[0]
  return {
    ...(amount
      ? {
          amount: [
            amount.startsWith('must be at least')
              ? 'payouts:errors.belowMinimum'
              : amount.startsWith('must be at most')
                ? 'payouts:errors.aboveAvailable'
                : 'payouts:errors.amount',
          ],
        }
      : {}),
    ...(errors?.paymentMethodId ? { paymentMethodId: ['payouts:errors.method'] } : {}),
    ...(errors?.currency ? { currency: ['payouts:errors.currency'] } : {}),
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'payments.details')
  const form = await request.formData()
  const submission = parseWithZod(form, { schema: payoutForm })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  const digits = currencyDigits(v.currency)
  const [whole, fraction = ''] = v.amount.replace(',', '.').split('.')
  if (fraction.length > digits)
    return data(
      { result: submission.reply({ fieldErrors: { amount: ['payouts:errors.amount'] } }) },
      { status: 400 },
    )
  const amountMinor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0)
  // A withdrawal moves money: the form's first POST answers with the confirmation step, which
  // names the amount and the account; only that step's own form pays out (decision 310).
  if (unconfirmed('payout', 'withdraw', form)) {
    // The step asks only about a withdrawal that can be made: the minimum and the balance first.
    const { balances, minimumMinor } = await apiFor(context).call(c.payouts)
    const availableMinor = balances.find((b) => b.currency === v.currency)?.availableMinor ?? 0
    const tooFar =
      amountMinor < minimumMinor
        ? 'payouts:errors.belowMinimum'
        : amountMinor > availableMinor
          ? 'payouts:errors.aboveAvailable'
          : null
    if (tooFar)
      return data({ result: submission.reply({ fieldErrors: { amount: [tooFar] } }) }, { status: 400 })
    return {
      confirm: { amount: v.amount, amountMinor, currency: v.currency, paymentMethodId: v.paymentMethodId },
    }
  }
  try {
    const payout = await apiFor(context).call(c.payout, {
      body: { amountMinor, currency: v.currency, paymentMethodId: v.paymentMethodId },
    })
    const { t, language } = getInstance(context)
    const message = t(`payouts:notices.${payout.status}`, {
      amount: formatMoney(payout.amountMinor, payout.currency, language),
      destination: payout.destination,
    })
    return redirectWithFlash('/payouts', { kind: payout.status === 'failed' ? 'error' : 'success', message })
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status !== 400) throwApiError(error)
    const fields = fieldErrors(error)
    return data(
      {
        result: submission.reply(
          Object.keys(fields).length ? { fieldErrors: fields } : { formErrors: ['errors.failed'] },
        ),
      },
      { status: 400 },
    )
  }
}

type PayoutsData = Route.ComponentProps['loaderData']
type Payouts = ResultOf<typeof c.payouts>

/** The payout minimum in each currency with money to withdraw (else in each balance's), or null with no balance. */
function minimumOf(words: Wording, { balances, minimumMinor }: Pick<Payouts, 'balances' | 'minimumMinor'>) {
  const withdrawable = balances.filter((b) => b.availableMinor > 0)
  const currencies = withdrawable.length ? withdrawable : balances
  return currencies.length ? currencies.map((b) => words.money(minimumMinor, b.currency)).join(', ') : null
}

/** A payout's amount and time as its card shows them. */
const payoutTexts = (words: Wording, p: Payouts['data'][number]) => ({
  amount: words.money(p.amountMinor, p.currency),
  at: words.date(p.createdAt, 'dateTime'),
})

export default function Payouts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('payouts')
  const { balances } = loaderData
  const minimum = minimumOf(useWords(), loaderData)
  return (
    <main id="main" className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      {!loaderData.freelancer ? (
        <p>{t('clientNote')}</p>
      ) : (
        <>
          <Available balances={balances} minimum={minimum} />
          {actionData && 'confirm' in actionData ? (
            <ConfirmWithdrawal confirm={actionData.confirm} methods={loaderData.methods} />
          ) : (
            <WithdrawCard
              data={loaderData}
              result={actionData && 'result' in actionData ? actionData.result : undefined}
              minimum={minimum}
            />
          )}
        </>
      )}
      <History payouts={loaderData.data} />
    </main>
  )
}

/** The withdrawal's confirmation step: the typed amount as money and the account it goes to. */
function ConfirmWithdrawal({
  confirm: c,
  methods,
}: {
  confirm: { amount: string; amountMinor: number; currency: string; paymentMethodId: number }
  methods: PayoutsData['methods']
}) {
  const { t } = useTranslation('payouts')
  const amount = useWords().money(c.amountMinor, c.currency)
  const m = methods.find((x) => x.id === c.paymentMethodId)
  const destination = m ? `${t(`kind.${m.kind}`)} · ${m.masked}` : ''
  return (
    <Card title={t('form.title')} titleId="payouts-form" level={2} as="section" data-testid="payouts-form">
      <ConfirmStep
        question={t('confirm.question', { amount, destination })}
        yes={t('confirm.yes', { amount })}
        fields={{ amount: c.amount, currency: c.currency, paymentMethodId: c.paymentMethodId }}
        back="/payouts"
      >
        <p className="muted small">{t('confirm.note')}</p>
      </ConfirmStep>
    </Card>
  )
}

/** The money available per currency, and the payout minimum. */
function Available({ balances, minimum }: { balances: PayoutsData['balances']; minimum: string | null }) {
  const { t } = useTranslation('payouts')
  return (
    <Card
      title={t('available.title')}
      titleId="payouts-available"
      level={2}
      as="section"
      data-testid="payouts-available"
    >
      {balances.length ? (
        <DefinitionList
          items={balances.map((b): [string, React.ReactNode] => [
            b.currency,
            <Money key={b.currency} minor={b.availableMinor} currency={b.currency} />,
          ])}
        />
      ) : (
        <p className="muted">{t('available.none')}</p>
      )}
      {minimum ? <p className="muted">{t('available.minimum', { amount: minimum })}</p> : null}
    </Card>
  )
}

/** The withdraw form, or why there is none (no payment method yet, nothing to withdraw). */
function WithdrawCard({
  data: loaderData,
  result,
  minimum,
}: {
  data: PayoutsData
  result: unknown
  minimum: string | null
}) {
  const { t } = useTranslation('payouts')
  const { methods } = loaderData
  const withdrawable = loaderData.balances.filter((b) => b.availableMinor > 0)
  return (
    <Card title={t('form.title')} titleId="payouts-form" level={2} as="section" data-testid="payouts-form">
      {!methods.length ? (
        <EmptyState
          title={t('form.noMethod')}
          action={<ButtonLink to="/peyment-details">{t('form.addMethod')}</ButtonLink>}
        >
          {t('form.noMethodHint')}
        </EmptyState>
      ) : !withdrawable.length ? (
        <p className="muted">{t('form.nothing')}</p>
      ) : (
        <WithdrawForm data={loaderData} result={result} minimum={minimum} />
      )}
    </Card>
  )
}

/**
 * The withdraw form, rendered from the action's reply with no form library in the browser
 * (decision 316): the action checks it and answers each field's error and what was typed.
 */
function WithdrawForm({
  data: loaderData,
  result,
  minimum,
}: {
  data: PayoutsData
  result: unknown
  minimum: string | null
}) {
  const { t } = useTranslation('payouts')
  const { balances, methods } = loaderData
  const withdrawable = balances.filter((b) => b.availableMinor > 0)
  const currencies = withdrawable.length ? withdrawable : balances
  const preferred = methods.find((m) => m.isDefault) ?? methods[0]
  const form = useReplyForm(result as FieldReply | undefined, 'payout', {
    paymentMethodId: preferred ? String(preferred.id) : '',
  })
  return (
    // Keyed on the reply (it takes the values the reply kept) and on the newest payout (one empties it).
    <ReplyPostForm form={{ ...form, key: `${loaderData.data[0]?.id ?? 0}-${form.key}` }} id="payout">
      <Field field={form.field('amount')} label={t('form.amount')} hint={t('form.amountHint', { minimum })} />
      {currencies.length > 1 ? (
        <FilterSelect
          name="currency"
          id="payout-currency"
          label={t('form.currency')}
          value={currencies[0].currency}
          options={currencies.map((b) => ({ value: b.currency, label: b.currency }))}
        />
      ) : (
        <input type="hidden" name="currency" value={currencies[0].currency} />
      )}
      <MethodSelect field={form.field('paymentMethodId')} methods={methods} />
      <ButtonGroup>
        <Button variant="primary">{t('form.submit')}</Button>
      </ButtonGroup>
    </ReplyPostForm>
  )
}

/** One of the freelancer's active payment methods (the default chosen), and a link to manage them. */
function MethodSelect({ field, methods }: { field: ReplyFieldMeta; methods: PayoutsData['methods'] }) {
  const { t } = useTranslation('payouts')
  const methodError = field.error
  return (
    <div className="field">
      <label htmlFor={field.id}>{t('form.method')}</label>
      <select {...inputProps(field)}>
        {methods.map((m) => (
          <option key={m.id} value={m.id}>
            {t(`kind.${m.kind}`)} · {m.masked}
            {m.isDefault ? ` (${t('form.default')})` : ''}
          </option>
        ))}
      </select>
      {methodError ? (
        <p className="field-error" id={field.errorId} role="alert">
          {t(methodError)}
        </p>
      ) : null}
      <p className="field-hint">
        <Link to="/peyment-details">{t('form.manage')}</Link>
      </p>
    </div>
  )
}

function History({ payouts }: { payouts: PayoutsData['data'] }) {
  const { t } = useTranslation('payouts')
  const words = useWords()
  return (
    <section className="ui-section" aria-labelledby="payouts-history">
      <h2 id="payouts-history">{t('history.title')}</h2>
      {payouts.length ? (
        <div data-testid="payouts-history">
          {payouts
            .map((p) => ({ p, ...payoutTexts(words, p) }))
            .map(({ p, amount, at }) => (
              <Card
                key={p.id}
                title={amount}
                status={<StatusChip machine="payout" state={p.status} />}
                meta={at}
                data-testid="payout"
              >
                <p>
                  {t(`kind.${p.destinationKind}`)} · {p.destination}
                </p>
                {p.status === 'failed' ? <p className="muted">{t('history.returned')}</p> : null}
              </Card>
            ))}
        </div>
      ) : (
        <p className="muted">{t('history.none')}</p>
      )}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
