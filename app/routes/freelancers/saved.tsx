import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/saved'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { favouritesContract as c } from '#server/modules/favourites/contract.ts'
import { ButtonLink } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { titled } from '~/lib/meta'
import { FreelancerHit, wordHit } from './hit'
import { favouriteIntent } from './favourites.server'
import stylesheet from '../profile/profile.css?url'
import { listPage } from '~/lib/list-page'

// /freelancers/saved: the freelancers a client or a company saved, newest saved first, as Find
// Freelancers shows them; each can be removed here (a plain form). Decision 336.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const page = listPage(url)
  try {
    const result = await apiFor(context).call(c.list, { query: { page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    for (const h of result.data) wordHit(words, h)
    return {
      result,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t('shortlist:favourites.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'freelancers.find')
  const back = url.pathname + url.search
  return (await favouriteIntent(context, await request.formData(), back)) ?? null
}

export default function SavedFreelancers({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['shortlist', 'projects'])
  const { result, url } = loaderData
  const notice = (actionData as { notice?: string } | undefined)?.notice
  return (
    <main id="main" className="container page">
      <h1>{t('favourites.title')}</h1>
      <p className="muted">{t('favourites.lead')}</p>
      {notice ? <Notice kind="error">{t(`projects:${notice}`, { defaultValue: notice })}</Notice> : null}
      {result.data.length ? (
        <ul className="search-results" data-testid="saved-freelancers">
          {result.data.map((h) => (
            <FreelancerHit key={h.userId} hit={h} save={{ saved: true, action: url }} />
          ))}
        </ul>
      ) : (
        <EmptyState
          title={t('favourites.none')}
          action={
            <ButtonLink variant="primary" to="/freelancers">
              {t('favourites.find')}
            </ButtonLink>
          }
        />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
