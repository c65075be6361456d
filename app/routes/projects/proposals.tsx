import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/proposals'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { proposalStates } from '#server/modules/projects/machines.ts'
import { StatusFilter, pageOf, statusOf } from './ui'
import { Bid } from './terms-ui'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { titled } from '~/lib/meta'

// /projects/freelancer/porposals (the spec's spelling): My Proposals, filtered by state in the URL.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'proposals.mine')
  const status = statusOf(url, proposalStates)
  const page = pageOf(url)
  try {
    const result = await apiFor(context).call(c.myProposals, { query: { status, page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    for (const p of result.data) words.money(p.bidMinor, p.currency)
    return {
      result: result,
      words: words.words,
      status: status ?? '',
      url: url.pathname + url.search,
      title: getInstance(context).t('projects:proposals.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function MyProposals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { status, url, result } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('proposals.title')}</h1>
      <StatusFilter machine="proposal" states={proposalStates} status={status} />
      <h2 className="visually-hidden">{t('list.results')}</h2>
      {result.data.length ? null : (
        <EmptyState
          title={t('proposals.none')}
          action={
            <ButtonLink variant="primary" to="/projects/getprojects">
              {t('contracts.find')}
            </ButtonLink>
          }
        >
          {status ? null : t('proposals.find')}
        </EmptyState>
      )}
      {result.data.map((p) => (
        <Card
          key={p.id}
          data-testid="my-proposal"
          titleId={`proposal-${p.id}`}
          title={
            <Link
              to={
                p.status === 'accepted'
                  ? `/projects/freelancer/contract/${p.projectId}`
                  : `/projects/details/${p.projectId}`
              }
            >
              {p.projectTitle}
            </Link>
          }
          status={<StatusChip machine="proposal" state={p.status} />}
        >
          <DefinitionList
            items={[
              [p.weeklyHours == null ? t('details.bid') : t('details.rate'), <Bid key="m" p={p} />],
              [t('details.duration'), t('list.days', { count: p.durationDays })],
            ]}
          />
          {p.rejectReason ? (
            <p className="prewrap">{t('proposals.rejectReason', { reason: p.rejectReason })}</p>
          ) : null}
        </Card>
      ))}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
