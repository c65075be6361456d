import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/contract'
import { apiFor, isThrownAnswer } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { refused, simpleIntent } from './actions.server'
import { chosenFile, uploadProjectFile } from './api.server'
import { ActivityList, InstallmentList, wordActivity, wordInstallments } from './installments'
import { RefundsSection, wordRefunds } from '../payments/refunds'
import { loadRefunds, refundIntent } from '../payments/refunds.server'
import { loadChangeOrders } from './change-orders.server'
import { wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ContractValue } from './change-orders-ui'
import { Attachments, Money, progressOf } from './ui'
import { RegisterLink } from './register-ui'
import { TimesheetLink } from './timesheet-link'
import { HourlyTerms, wordTerms } from './hourly-ui'
import { ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { Person } from '~/components/ui/person'
import { StatusChip } from '~/components/ui/status-chip'
import { titled } from '~/lib/meta'
import { useProjectChanges } from '~/components/realtime'

// /projects/freelancer/contract/{projectId}: the freelancer's contract page — installments and their
// states (submit work with a note and a file), or an hourly contract's rate and weekly limit, the
// project's files, the activity log, the chat.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  try {
    const api = apiFor(context)
    const view = await api.call(c.detailsForFreelancer, { params: { projectId } })
    if (!view.contract) throw new Response('Not Found', { status: 404 })
    const words = wordsFor(getLocale(context))
    const [activity, refunds, changes] = await Promise.all([
      api.call(c.activities, { params: { projectId }, query: { pageSize: 50 } }),
      // An hourly contract has no installments to refund or amend (decision 323).
      loadRefunds(context, projectId, view.contract.billing !== 'hourly'),
      loadChangeOrders(context, projectId, view.contract.billing !== 'hourly', words),
    ])
    if (refunds) wordRefunds(words, refunds, view.contract.currency)
    wordTerms(words, view.contract)
    wordInstallments(words, view.contract.installments)
    wordActivity(words, activity.data)
    return {
      work: { project: view.project, contract: view.contract, activity: activity.data },
      words: words.words,
      refunds,
      changes,
      hourly: view.contract.billing === 'hourly',
      refundDone: url.searchParams.get('refund'),
    }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.work.project.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const form = await request.formData()
  const refund = await refundIntent(context, projectId, form, `/projects/freelancer/contract/${projectId}`)
  if (refund) return refund
  const file = chosenFile(form.get('file'))
  if (form.get('intent') === 'installment-submit' && file) {
    try {
      await uploadProjectFile(context, projectId, file, { installmentId: Number(form.get('id')) })
    } catch (error) {
      return refused(error)
    }
  }
  return simpleIntent(context, projectId, form, `/projects/freelancer/contract/${projectId}`)
}

export default function ContractPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { project: p, contract, activity } = loaderData.work
  useProjectChanges(p.id)
  const notice = (actionData as { notice?: string } | undefined)?.notice
  const hourly = contract.billing === 'hourly'
  return (
    <main id="main" className="container page project-details">
      {notice ? <Notice kind="error">{t(notice, { defaultValue: notice })}</Notice> : null}
      <h1>
        {t('contract.title')}: {p.title}
      </h1>
      <ContractTerms contract={contract} />
      {contract.status === 'completed' ? <Notice kind="success">{t('contract.completed')}</Notice> : null}
      <ButtonGroup label={t('contract.actions')}>
        {contract.status === 'completed' ? (
          <ButtonLink variant="primary" to="/reviews">
            {t('contract.review')}
          </ButtonLink>
        ) : null}
        <ButtonLink to={`/chats/${contract.roomId}`}>{t('contract.chat')}</ButtonLink>
        <ButtonLink to={`/projects/details/${p.id}`}>{t('contract.project')}</ButtonLink>
        <RegisterLink projectId={p.id} />
        {loaderData.hourly ? <TimesheetLink projectId={p.id} /> : null}
      </ButtonGroup>
      {loaderData.changes ? (
        <ContractValue v={loaderData.changes} link={`/projects/changes/${p.id}`} />
      ) : null}
      {hourly ? null : (
        <section aria-labelledby="installments" className="ui-section">
          <h2 id="installments">{t('contract.installments')}</h2>
          <InstallmentList
            items={contract.installments}
            role="freelancer"
            active={contract.status === 'active'}
            projectId={contract.projectId}
          />
        </section>
      )}
      {loaderData.refunds ? (
        <RefundsSection
          refunds={loaderData.refunds}
          installments={contract.installments}
          role="freelancer"
          counterpart={contract.client.name}
          done={loaderData.refundDone}
          result={actionData as never}
        />
      ) : null}
      {p.attachments.length ? (
        <section className="ui-section">
          <h2>{t('fields.attachments')}</h2>
          <Attachments files={p.attachments} />
        </section>
      ) : null}
      <section aria-labelledby="activity" className="ui-section">
        <h2 id="activity">{t('activity.title')}</h2>
        <ActivityList items={activity} />
      </section>
    </main>
  )
}

type Contract = Route.ComponentProps['loaderData']['work']['contract']

/** The client, the state and the terms: the price and installments approved, or the hourly terms. */
function ContractTerms({ contract }: { contract: Contract }) {
  const { t } = useTranslation('projects')
  const { done, total } = progressOf(contract.installments)
  return (
    <Card>
      <header className="ui-card-header">
        <Person
          name={contract.client.name}
          imageUrl={contract.client.imageUrl}
          subtitle={t('details.client')}
        />
        <StatusChip machine="contract" state={contract.status} />
      </header>
      {contract.billing === 'hourly' ? (
        <HourlyTerms contract={contract} note />
      ) : (
        <DefinitionList
          items={[
            [t('details.bid'), <Money key="m" minor={contract.amountMinor} currency={contract.currency} />],
            [t('contract.installments'), t('contracts.progress', { done, total })],
          ]}
        />
      )}
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
