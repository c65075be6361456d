import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/client'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { projectStates } from '#server/modules/projects/machines.ts'
import { ProjectCard, StatusFilter, pageOf, statusOf, wordProjectCards } from './ui'
import { ButtonLink } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { titled } from '~/lib/meta'

// /projects/client: My Projects, filtered by state in the URL.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'projects.mine')
  const status = statusOf(url, projectStates)
  const page = pageOf(url)
  try {
    const result = await apiFor(context).call(c.myProjects, { query: { status, page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    wordProjectCards(words, result.data)
    return {
      result: result,
      words: words.words,
      status: status ?? '',
      url: url.pathname + url.search,
      title: getInstance(context).t('projects:client.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function MyProjects({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { status, url, result } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('client.title')}</h1>
      <StatusFilter machine="project" states={projectStates} status={status}>
        <ButtonLink variant="primary" to="/projects/create">
          {t('create.title')}
        </ButtonLink>
      </StatusFilter>
      <h2 className="visually-hidden">{t('list.results')}</h2>
      {result.data.length ? (
        result.data.map((p) => <ProjectCard key={p.id} p={p} href={`/projects/client/details/${p.id}`} />)
      ) : (
        <EmptyState title={t('client.none')}>{status ? null : t('client.createFirst')}</EmptyState>
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
