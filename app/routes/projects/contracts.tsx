import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/contracts'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { Money, pageOf, progressOf } from './ui'
import { HourlyTerms, wordTerms } from './hourly-ui'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { titled } from '~/lib/meta'

// /projects/freelancer: My Contracts.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'contracts.mine')
  const page = pageOf(url)
  try {
    const result = await apiFor(context).call(c.myContracts, { query: { page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    for (const k of result.data) wordTerms(words, k)
    return {
      result: result,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t('projects:contracts.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function MyContracts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { url, result } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('contracts.title')}</h1>
      <h2 className="visually-hidden">{t('list.results')}</h2>
      {result.data.length ? null : (
        <EmptyState
          title={t('contracts.none')}
          action={
            <ButtonLink variant="primary" to="/projects/getprojects">
              {t('contracts.find')}
            </ButtonLink>
          }
        />
      )}
      {result.data.map((k) => {
        const { done, total } = progressOf(k.installments)
        return (
          <Card
            key={k.id}
            data-testid="contract"
            titleId={`contract-${k.id}`}
            title={<Link to={`/projects/freelancer/contract/${k.projectId}`}>{k.projectTitle}</Link>}
            status={<StatusChip machine="contract" state={k.status} />}
          >
            {k.billing === 'hourly' ? (
              <>
                <HourlyTerms contract={k} />
                <DefinitionList items={[[t('details.client'), k.client.name]]} />
              </>
            ) : (
              <DefinitionList
                items={[
                  [t('details.bid'), <Money key="m" minor={k.amountMinor} currency={k.currency} />],
                  [t('details.client'), k.client.name],
                  [t('contract.installments'), t('contracts.progress', { done, total })],
                ]}
              />
            )}
            {k.status === 'completed' ? <ButtonLink to="/reviews">{t('contract.review')}</ButtonLink> : null}
          </Card>
        )
      })}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
