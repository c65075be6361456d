import { useTranslation } from '~/lib/translations'
import { data } from 'react-router'
import type { Route } from './+types/not-found'

// Answers 404 so crawlers and tests see the truth, while showing the page of docs/product.md §2.
export function loader() {
  return data(null, { status: 404 })
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Workneer' }]
}

export default function NotFound() {
  const { t } = useTranslation()
  return (
    <main id="main" className="container page narrow">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.body')}</p>
      <p>
        <a className="button" href="/">
          {t('nav.home')}
        </a>
      </p>
    </main>
  )
}
