import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/change-orders'
import { apiFor, isThrownAnswer } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { ErrorPage } from '~/components/error-page'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import type { FieldReply } from '~/components/ui/field'
import { ReplyPostForm } from '~/components/auth/form'
import { inputProps, useReplyForm } from '~/components/ui/reply-form'
import { titled } from '~/lib/meta'
import { changeOrdersContract as co } from '#server/modules/projects/change-orders/contract.ts'
import { changeOrderLimits, effectKinds } from '#server/modules/projects/change-orders/states.ts'
import { changeOrderAction } from './change-orders.server'
import { ChangeOrderCard, ContractValue, wordChangeOrders, wordContractValue } from './change-orders-ui'
import { wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ErrorText } from '~/components/projects/error-text'

// /projects/changes/{projectId}: a contract's change orders (issue 40 item 2, decision 319), for
// its two parties: the value summary, the form to propose one (a plain form: one change per
// change order), and every change order with its state and, when it is the reader's turn, the
// decision. Everything is a plain POST, so the page works with JavaScript off.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  try {
    const list = await apiFor(context).call(co.list, { params: { projectId } })
    const words = wordsFor(getLocale(context))
    wordContractValue(words, list)
    wordChangeOrders(words, list)
    return {
      projectId,
      list,
      words: words.words,
      done: url.searchParams.get('done'),
      number: url.searchParams.get('number'),
    }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.list.projectTitle)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  return changeOrderAction(context, projectId, await request.formData(), `/projects/changes/${projectId}`)
}

type Result = { notice?: string; propose?: FieldReply; reject?: FieldReply; rejectFor?: number } | undefined

export default function ChangeOrdersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('changeOrders')
  const { projectId, list, done, number } = loaderData
  const result = actionData as Result
  const contractPage =
    list.role === 'client'
      ? `/projects/client/details/${projectId}`
      : `/projects/freelancer/contract/${projectId}`
  return (
    <main id="main" className="container page project-details">
      <h1>
        {t('title')}: {list.projectTitle}
      </h1>
      <p>{t('intro')}</p>
      {done ? (
        <Notice kind="success" data-testid="change-order-notice">
          {t(`done.${done}`, { number, defaultValue: '' })}
        </Notice>
      ) : null}
      {result?.notice ? (
        <Notice kind="error">{t(result.notice, { defaultValue: result.notice })}</Notice>
      ) : null}
      <ContractValue v={list} />
      <p>
        <ButtonLink to={contractPage}>{t('back')}</ButtonLink>
      </p>
      {list.billing === 'hourly' ? (
        <Notice kind="info">{t('hourly')}</Notice>
      ) : list.contractStatus === 'active' ? (
        <ProposeForm installments={list.installments} currency={list.currency} reply={result?.propose} />
      ) : null}
      <section aria-labelledby="change-orders" className="ui-section">
        <h2 id="change-orders">{t('list.title')}</h2>
        {list.data.length ? null : <EmptyState title={t('list.empty')} />}
        {list.data.map((o) => (
          <ChangeOrderCard
            key={o.id}
            o={o}
            installments={list.installments}
            currentMinor={list.currentMinor}
            reply={result?.rejectFor === o.id ? result.reject : undefined}
          />
        ))}
      </section>
    </main>
  )
}

function ProposeForm({
  installments,
  currency,
  reply,
}: {
  installments: Array<{ id: number; position: number; title: string; status: string }>
  currency: string
  reply?: FieldReply
}) {
  const { t } = useTranslation('changeOrders')
  const form = useReplyForm(reply, 'propose')
  const f = (name: string) => form.field(name)
  const error = (name: string) => {
    const field = f(name)
    return <ErrorText errors={field.error ? [field.error] : undefined} id={field.errorId} />
  }
  const open = installments.filter((i) => !['approved', 'released', 'removed'].includes(i.status))
  return (
    <Card>
      <h2 className="ui-card-title">{t('form.title')}</h2>
      <p className="muted small">{t('form.hint')}</p>
      <ReplyPostForm form={form} id="propose" intent="propose">
        <div className="field">
          <label htmlFor={f('description').id}>{t('form.description')}</label>
          <textarea {...inputProps(f('description'))} rows={3} maxLength={changeOrderLimits.description} />
          {error('description')}
        </div>
        <div className="field">
          <label htmlFor={f('reason').id}>{t('form.reason')}</label>
          <textarea {...inputProps(f('reason'))} rows={2} maxLength={changeOrderLimits.reason} />
          {error('reason')}
        </div>
        <ChangeChoice form={form} installments={open} />
        <div className="field">
          <label htmlFor={f('title').id}>{t('form.newTitle')}</label>
          <input {...inputProps(f('title'))} maxLength={changeOrderLimits.title} />
          {error('title')}
        </div>
        <div className="field">
          <label htmlFor={f('amountMinor').id}>{t('form.amount', { currency })}</label>
          <input
            {...inputProps(f('amountMinor'))}
            inputMode="decimal"
            aria-describedby={[f('amountMinor').error ? f('amountMinor').errorId : '', 'propose-amount-hint']
              .filter(Boolean)
              .join(' ')}
          />
          <p className="field-hint" id="propose-amount-hint">
            {t('form.amountHint')}
          </p>
          {error('amountMinor')}
        </div>
        <div className="field">
          <label htmlFor={f('dueDate').id}>{t('form.dueDate')}</label>
          <input {...inputProps(f('dueDate'))} type="date" />
          {error('dueDate')}
        </div>
        <div>
          <Button variant="primary">{t('form.submit')}</Button>
        </div>
      </ReplyPostForm>
    </Card>
  )
}

/** What kind of change, and which installment it names (a change or a reduction). */
function ChangeChoice({
  form,
  installments,
}: {
  form: ReturnType<typeof useReplyForm>
  installments: Array<{ id: number; position: number; title: string }>
}) {
  const { t } = useTranslation('changeOrders')
  const f = (name: string) => form.field(name)
  const error = (name: string) => {
    const field = f(name)
    return <ErrorText errors={field.error ? [field.error] : undefined} id={field.errorId} />
  }
  const open = installments
  return (
    <>
      <div className="field">
        <label htmlFor={f('kind').id}>{t('form.kind')}</label>
        <select {...inputProps(f('kind'))}>
          {effectKinds.map((k) => (
            <option key={k} value={k}>
              {t(`form.kinds.${k}`)}
            </option>
          ))}
        </select>
        {error('kind')}
      </div>
      <div className="field">
        <label htmlFor={f('installmentId').id}>{t('form.installment')}</label>
        <select {...inputProps(f('installmentId'))}>
          <option value="">{t('form.chooseInstallment')}</option>
          {open.map((i) => (
            <option key={i.id} value={i.id}>
              {i.position}. {i.title}
            </option>
          ))}
        </select>
        {error('installmentId')}
      </div>
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
