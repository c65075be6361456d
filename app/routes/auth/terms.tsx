import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/terms'
import { getLocale } from '~/middleware/i18next'
import { pageTitles, terms } from '#server/db/seed-data/content.ts'
import { titled } from '~/lib/meta'
import { publicPageHeaders } from '~/lib/public-page'

export const headers = publicPageHeaders

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// The terms a person accepts when signing up, in their language ("1. Title\nText" sections).
export function loader({ context }: Route.LoaderArgs) {
  const locale = getLocale(context) as keyof typeof terms
  const text = terms[locale] ?? terms.en
  const sections = text.split(/\n\n/).map((block) => {
    const [heading, ...rest] = block.split('\n')
    return { heading, body: rest.join('\n') }
  })
  return { title: (pageTitles.terms[locale] ?? pageTitles.terms.en) as string, sections }
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  return (
    <main id="main" className="container page narrow prose">
      <h1>{loaderData.title}</h1>
      {loaderData.sections.map((s) => (
        <section key={s.heading}>
          <h2>{s.heading}</h2>
          <p className="pre-line">{s.body}</p>
        </section>
      ))}
      <p>
        <Link to="/auth/gotosign">{t('signup.title')}</Link>
      </p>
    </main>
  )
}
