import { useTranslation } from '~/lib/translations'
import { data, Link } from 'react-router'
import type { Route } from './+types/unauthorized'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'

// docs/product.md §8: a 403 lands here.
export function loader({ context }: Route.LoaderArgs) {
  return data({ title: getInstance(context).t('auth:unauthorized.title') }, { status: 403 })
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Unauthorized() {
  const { t } = useTranslation('auth')
  return (
    <main id="main" className="container page narrow">
      <h1>{t('unauthorized.title')}</h1>
      <p>{t('unauthorized.body')}</p>
      <p>
        <Link className="button" to="/">
          {t('unauthorized.home')}
        </Link>
      </p>
    </main>
  )
}
