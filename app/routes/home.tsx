import { useTranslation } from 'react-i18next'
import type { Route } from './+types/home'
import { apiFor } from '~/lib/api.server'
import { getInstance } from '~/middleware/i18next'
import { catalogueContract } from '../../server/modules/catalogue/contract'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }, { name: 'description', content: loaderData?.description ?? '' }]
}

export async function loader({ context }: Route.LoaderArgs) {
  const t = getInstance(context).t
  const { data: categories } = await apiFor(context).call(catalogueContract.categories)
  return { categories, title: t('home.metaTitle'), description: t('home.metaDescription') }
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation()
  return (
    <main id="main">
      <section className="hero">
        <div className="container">
          <h1>{t('home.heroTitle')}</h1>
          <p className="lead">{t('home.heroLead')}</p>
        </div>
      </section>
      <section className="container page" aria-labelledby="categories-heading">
        <h2 id="categories-heading">{t('home.categoriesTitle')}</h2>
        <ul className="category-grid">
          {loaderData.categories.map((c) => (
            <li key={c.id} className="card category-card">
              <a href={`/categories?search=${encodeURIComponent(c.name)}`}>
                <img src={c.attachmentUrl} alt="" width="64" height="64" loading="lazy" />
                <h3>{c.name}</h3>
                <p>{c.description}</p>
              </a>
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
