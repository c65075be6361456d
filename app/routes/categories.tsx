import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/categories'
import { throwApiError } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { categoriesMatching } from '~/lib/category-search'
import { readCategoryTree } from '~/lib/catalogue.server'
import { publicPageHeaders } from '~/lib/public-page'

// /categories?search=<term> (docs/product.md §2: a footer category passes its name as the search term):
// that category, or the areas whose name, description, subcategories or skills match
// (app/lib/category-search.ts), with their subcategories.
export const headers = publicPageHeaders

export async function loader({ context, url }: Route.LoaderArgs) {
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, 100)
  try {
    const { data } = await readCategoryTree(context)
    const results = categoriesMatching(data, search)
    return { search, results, title: getInstance(context).t('content:categories.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const { search, results } = loaderData
  const filtered = search && search.toLowerCase() !== 'all'
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{filtered ? t('categories.resultsFor', { term: search }) : t('categories.title')}</h1>
          <p className="lead">{t('categories.lead')}</p>
          <Form method="get" className="inline-search" role="search">
            <label htmlFor="category-search" className="visually-hidden">
              {t('categories.searchLabel')}
            </label>
            <input id="category-search" type="search" name="search" defaultValue={search} />
            <button type="submit" className="button">
              {t('categories.search')}
            </button>
          </Form>
        </div>
      </header>
      <div className="container page">
        {results.length === 0 ? (
          <p className="empty-state">
            {t('categories.none', { term: search })} <Link to="/categories">{t('categories.showAll')}</Link>
          </p>
        ) : null}
        <ul className="area-list">
          {results.map((c) => (
            <li key={c.id} className="card area">
              <div className="area-head">
                <img src={c.attachmentUrl} alt="" width="56" height="56" />
                <div>
                  <h2>{c.name}</h2>
                  <p>{c.description}</p>
                </div>
              </div>
              <ul className="chips">
                {c.subcategories.map((s) => (
                  <li key={s.id}>{s.name}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        {filtered && results.length > 0 ? (
          <p className="center">
            <Link to="/categories">{t('categories.showAll')}</Link>
          </p>
        ) : null}
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
