import { redirect } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/pay'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { getInstance, getLocale } from '~/middleware/i18next'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { ConfirmStep } from '~/components/ui/confirm'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { paymentsContract as c } from '#server/modules/payments/contract.ts'
import { projectsContract as pc } from '#server/modules/projects/contract.ts'
import { refused } from '../projects/actions.server'
import { Money } from '../projects/ui'
import { useWords, wordsFor } from '~/lib/words'

// /projects/client/pay/{projectId}?installment=…: the client sees what paying the chosen
// installments costs (amount, service fee, total) and goes to the gateway's checkout. The total
// the page showed is sent back and checked against the contract's (decision 173).
const chosen = (values: FormDataEntryValue[] | string[]) =>
  values.map(Number).filter((n) => Number.isInteger(n) && n > 0)

export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const api = apiFor(context)
    const projectId = Number(params.projectId)
    const [quote, view] = await Promise.all([
      api.call(c.quote, {
        query: { projectId, installmentIds: chosen(url.searchParams.getAll('installment')) },
      }),
      // Who the money is held for: the confirmation names them.
      api.call(pc.detailsForClient, { params: { projectId } }),
    ])
    const payee = view.contract?.freelancer.name ?? ''
    const words = wordsFor(getLocale(context))
    for (const minor of [
      quote.amountMinor,
      quote.feeMinor,
      quote.totalMinor,
      ...quote.lines.map((l) => l.amountMinor),
    ])
      words.money(minor, quote.currency)
    return { quote, payee, words: words.words, title: getInstance(context).t('payments:pay.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  // Paying moves money: only the confirmation step's own form may do it (decision 310).
  if (unconfirmed('pay', 'pay', form)) return notConfirmed(context)
  const totalMinor = Number(form.get('totalMinor'))
  try {
    const paid = await apiFor(context).call(c.pay, {
      body: {
        projectId: Number(params.projectId),
        installmentIds: chosen(form.getAll('installment')),
        totalMinor: Number.isSafeInteger(totalMinor) ? totalMinor : undefined,
      },
    })
    return redirect(paid.checkoutUrl)
  } catch (error) {
    return refused(error)
  }
}

export default function PayPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation('payments')
  const { quote: q } = loaderData
  const notice = (actionData as { notice?: string } | undefined)?.notice
  const total = useWords().money(q.totalMinor, q.currency)
  return (
    <main id="main" className="container page">
      <h1>{t('pay.title')}</h1>
      {notice ? <Notice kind="error">{notice}</Notice> : null}
      <p className="lead">{t('pay.lead', { title: q.projectTitle })}</p>
      <Card title={t('pay.summary')} titleId="pay-summary" level={2} as="section" data-testid="pay-summary">
        <DefinitionList
          items={[
            ...q.lines.map((l): [string, React.ReactNode] => [
              t('pay.installment', { position: l.position, title: l.title }),
              <Money key={l.installmentId} minor={l.amountMinor} currency={q.currency} />,
            ]),
            [t('pay.amount'), <Money key="amount" minor={q.amountMinor} currency={q.currency} />],
            [
              t('pay.fee', { percent: q.feePercent }),
              <Money key="fee" minor={q.feeMinor} currency={q.currency} />,
            ],
            [t('pay.total'), <strong key="total">{total}</strong>],
          ]}
        />
        <ConfirmStep
          question={t('pay.confirm', { total, name: loaderData.payee })}
          yes={t('pay.submit', { total })}
          fields={{ installment: q.lines.map((l) => l.installmentId), totalMinor: q.totalMinor }}
          back={`/projects/client/details/${params.projectId}`}
        />
      </Card>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
