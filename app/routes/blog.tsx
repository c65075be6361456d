import { redirect, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/blog'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { BlogArticleBody } from '~/components/content/pieces'
import { getLocale } from '~/middleware/i18next'
import { useWords, wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { contentContract } from '#server/modules/content/contract.ts'
import { publicPageHeaders } from '~/lib/public-page'
import { tagLabel } from '~/lib/blog-tags'

export const headers = publicPageHeaders

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0) throw redirect('/auth/not-found')
  try {
    const post = await apiFor(context, { token: null }).call(contentContract.blog, { params: { id } })
    const words = wordsFor(getLocale(context))
    words.date(post.publishedAt, 'long')
    return { post, words: words.words }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData ? `${loaderData.post.title} – Workneer` : 'Workneer' },
    { name: 'description', content: loaderData?.post.summary ?? '' },
  ]
}

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const { post } = loaderData
  return (
    <main id="main" className="page-main">
      <article className="container page prose">
        <p>
          <Link to="/blogs">← {t('blog.back')}</Link>
        </p>
        <Article post={post} by={t('blog.by', { author: post.author })} />
        {post.tags.length ? (
          <ul className="tags" aria-label={t('blog.tagsLabel')}>
            {post.tags.map((tag) => (
              <li key={tag}>{tagLabel(t, tag)}</li>
            ))}
          </ul>
        ) : null}
      </article>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}

/** The post as worded by the loader (its day, decision 370). */
function Article({ post, by }: { post: Route.ComponentProps['loaderData']['post']; by: string }) {
  return <BlogArticleBody post={post} published={useWords().date(post.publishedAt, 'long')} by={by} />
}
