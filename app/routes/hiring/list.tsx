import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ButtonLink } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { hiringContract as c } from '#server/modules/hiring/contract.ts'
import { RequestCard, wordRequest } from './ui'
import { listPage } from '~/lib/list-page'

// /hiring: "Get help hiring", the requests a client or a company made to support to find the
// freelancer, newest first, and the way to a new one (decision 338).

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const page = listPage(url)
  try {
    const result = await apiFor(context).call(c.list, { query: { page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    for (const r of result.data) wordRequest(words, r)
    return {
      result,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t('shortlist:hiring.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function HiringRequests({ loaderData: { result, url } }: Route.ComponentProps) {
  const { t } = useTranslation('shortlist')
  return (
    <main id="main" className="container page">
      <h1>{t('hiring.title')}</h1>
      <p className="lead">{t('hiring.lead')}</p>
      <p>
        <ButtonLink variant="primary" to="/hiring/new">
          {t('hiring.list.new')}
        </ButtonLink>
      </p>
      <p className="muted small">{t('hiring.list.limit')}</p>
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('hiring.title')}>
          {result.data.map((r) => (
            <RequestCard key={r.id} request={r} to={`/hiring/${r.id}`} />
          ))}
        </ul>
      ) : (
        <EmptyState title={t('hiring.list.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
