import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/content-page'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'
import { publicPageHeaders } from '~/lib/public-page'

// /about-us and /why-workneer (docs/product.md §2): static pages whose text the API serves in the reader's
// language. Paragraphs are separated by a blank line; "1. Title\nText" blocks become sections.
const slugs = { '/about-us': 'about-us', '/why-workneer': 'why-workneer' } as const

export const headers = publicPageHeaders

export async function loader({ context, url }: Route.LoaderArgs) {
  const slug = slugs[url.pathname.replace(/\/$/, '') as keyof typeof slugs] ?? 'about-us'
  try {
    const page = await apiFor(context, { token: null }).call(contentContract.page, { params: { slug } })
    const words = wordsFor(getLocale(context))
    words.date(page.updatedAt)
    return { ...page, words: words.words }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, {
    name: 'description',
    content: loaderData?.body.split('\n')[0].slice(0, 160) ?? '',
  })
}

export function ContentBody({ body }: { body: string }) {
  return (
    <>
      {body.split(/\n\n+/).map((block, i) => {
        const [first, ...rest] = block.split('\n')
        if (rest.length && /^\d+\.\s/.test(first)) {
          return (
            <section key={i}>
              <h2>{first}</h2>
              <p className="pre-line">{rest.join('\n')}</p>
            </section>
          )
        }
        return <p key={i}>{block}</p>
      })}
    </>
  )
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const { title, body, updatedAt } = loaderData
  const words = useWords()
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{title}</h1>
        </div>
      </header>
      <article className="container page prose">
        <ContentBody body={body} />
        <p className="muted small">{t('pages.updated', { date: words.date(updatedAt) })}</p>
      </article>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
