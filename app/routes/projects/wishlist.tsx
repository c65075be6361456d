import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/wishlist'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '#server/modules/projects/contract.ts'
import { wishFromList } from './actions.server'
import { ProjectCard, wordProjectCards } from './ui'
import { ButtonLink } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { titled } from '~/lib/meta'
import { listPage } from '~/lib/list-page'

// /projects/wishlist: the projects the signed-in user saved, newest saved first; each can be
// unsaved here (a plain form). Projects that left "open" stay listed with their state.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  const page = listPage(url)
  try {
    const result = await apiFor(context).call(c.wishlist, { query: { page, pageSize: 20 } })
    const words = wordsFor(getLocale(context))
    wordProjectCards(words, result.data)
    return {
      result,
      words: words.words,
      userId: user.id,
      url: url.pathname + url.search,
      title: getInstance(context).t('projects:wishlist.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  return wishFromList(context, await request.formData(), url.pathname + url.search)
}

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { result, userId, url } = loaderData
  const notice = (actionData as { notice?: string } | undefined)?.notice
  return (
    <main id="main" className="container page">
      <h1>{t('wishlist.title')}</h1>
      {notice ? <Notice kind="error">{t(notice, { defaultValue: notice })}</Notice> : null}
      <h2 className="visually-hidden">{t('list.results')}</h2>
      {result.data.length ? (
        result.data.map((p) => (
          <ProjectCard
            key={p.id}
            p={p}
            href={p.client.id === userId ? `/projects/client/details/${p.id}` : `/projects/details/${p.id}`}
            save={{ saved: true, action: url }}
          />
        ))
      ) : (
        <EmptyState
          title={t('wishlist.none')}
          action={
            <ButtonLink variant="primary" to="/projects">
              {t('contracts.find')}
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
