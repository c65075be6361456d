import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { FaqEntryView } from '~/components/content/pieces'
import type { Route } from './+types/faq'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'
import { publicPageHeaders } from '~/lib/public-page'

const audiences = ['client', 'freelancer', 'all'] as const

export const headers = publicPageHeaders

export async function loader({ context }: Route.LoaderArgs) {
  try {
    const { data } = await apiFor(context, { token: null }).call(contentContract.faq)
    return { items: data, title: getInstance(context).t('content:faq.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title ?? 'FAQ')
}

// Questions grouped by audience; each answer is a <details>, so it opens without JavaScript.
export default function Faq({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{t('faq.title')}</h1>
          <p className="lead">{t('faq.lead')}</p>
        </div>
      </header>
      <div className="container page narrow-wide">
        {audiences.map((audience) => {
          const items = loaderData.items.filter((f) => f.audience === audience)
          if (!items.length) return null
          return (
            <section key={audience} aria-labelledby={`faq-${audience}`} className="faq-group">
              <h2 id={`faq-${audience}`}>{t(`faq.${audience}`)}</h2>
              {items.map((f) => (
                <FaqEntryView key={f.id} slug={f.slug} question={f.question} answer={f.answer} />
              ))}
            </section>
          )
        })}
        <p className="faq-more">
          {t('faq.morePrompt')} <Link to="/contact-us">{t('faq.moreLink')}</Link>
        </p>
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
