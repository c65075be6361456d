import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/blogs'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { isoDate } from '~/lib/format'
import { useWords, wordsFor } from '~/lib/words'
import { getInstance, getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'
import { tagLabel } from '~/lib/blog-tags'
import { publicPageHeaders } from '~/lib/public-page'

const PAGE_SIZE = 6

export const headers = publicPageHeaders

export async function loader({ context, url }: Route.LoaderArgs) {
  const raw = Number(url.searchParams.get('page') ?? 1)
  const page = Number.isInteger(raw) && raw > 0 ? raw : 1
  try {
    const result = await apiFor(context, { token: null }).call(contentContract.blogs, {
      query: { page, pageSize: PAGE_SIZE },
    })
    const words = wordsFor(getLocale(context))
    for (const p of result.data) words.date(p.publishedAt)
    return { ...result, words: words.words, title: getInstance(context).t('content:blog.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title ?? 'Blog')
}

export default function Blogs({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const { data: posts, page, totalPages } = loaderData
  const words = useWords()
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{t('blog.title')}</h1>
          <p className="lead">{t('blog.lead')}</p>
        </div>
      </header>
      <div className="container page">
        {posts.length === 0 ? <p className="empty-state">{t('blog.empty')}</p> : null}
        <ul className="post-grid">
          {posts.map((p) => (
            <li key={p.id} className="card post-card">
              <article>
                {p.imageUrl ? <img className="post-image" src={p.imageUrl} alt="" loading="lazy" /> : null}
                <p className="post-meta">
                  <time dateTime={isoDate(p.publishedAt)}>{words.date(p.publishedAt)}</time> ·{' '}
                  {t('blog.by', { author: p.author })}
                </p>
                <h2>
                  <Link to={`/blogs/${p.id}`}>{p.title}</Link>
                </h2>
                <p>{p.summary}</p>
                <ul className="tags" aria-label={t('blog.tagsLabel')}>
                  {p.tags.map((tag) => (
                    <li key={tag}>{tagLabel(t, tag)}</li>
                  ))}
                </ul>
              </article>
            </li>
          ))}
        </ul>
        {totalPages > 1 ? (
          <nav className="pagination" aria-label={t('blog.pagination')}>
            {page > 1 ? (
              <Link to={`/blogs?page=${page - 1}`} rel="prev">
                ← {t('blog.previous')}
              </Link>
            ) : (
              <span />
            )}
            <ol>
              {Array.from({ length: totalPages }, (_, i) => i + 1).map((n) => (
                <li key={n}>
                  <Link
                    to={`/blogs?page=${n}`}
                    aria-current={n === page ? 'page' : undefined}
                    aria-label={t('blog.page', { page: n })}
                  >
                    {n}
                  </Link>
                </li>
              ))}
            </ol>
            {page < totalPages ? (
              <Link to={`/blogs?page=${page + 1}`} rel="next">
                {t('blog.next')} →
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
        <p className="muted small center">{t('blog.pageOf', { page, total: totalPages })}</p>
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
