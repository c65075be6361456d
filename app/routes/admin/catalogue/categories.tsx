import type { Route } from './+types/categories'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { buttonClass, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { adminCatalogueContract as c } from '#server/modules/catalogue/admin-contract.ts'
import { catalogueAction, type CatalogueAnswer } from './actions.server'
import { ItemActions, NamesForm, Usage } from './ui'

// /admin/categories (SuperAdmin only): the catalogue's areas in the order the site shows them, each
// with its image, names, how many profiles and projects use it, and its subcategories; moved,
// added and deleted here, edited on its own page; the skills sheet imported and exported.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  try {
    const { data } = await apiFor(context).call(c.tree)
    return { categories: data, title: getInstance(context).t('adminCatalog:title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  return catalogueAction(context, request, url)
}

export default function AdminCategories({ loaderData: { categories }, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('adminCatalog')
  const answer = actionData as CatalogueAnswer | undefined
  const lang = i18n.language as 'en'
  return (
    <main id="main" className="container page">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      {/* Plain links: the export is a file, not a page. */}
      <Card level={2} title={t('sheet.title')} titleId="sheet-title" as="section">
        <p>{t('sheet.lead')}</p>
        <ButtonGroup label={t('sheet.title')}>
          <ButtonLink variant="primary" to="/admin/categories/import">
            {t('sheet.import')}
          </ButtonLink>
          <a className={buttonClass()} href="/admin/categories/export/xlsx" download>
            {t('sheet.exportXlsx')}
          </a>
          <a className={buttonClass()} href="/admin/categories/export/csv" download>
            {t('sheet.exportCsv')}
          </a>
        </ButtonGroup>
      </Card>
      <h2>{t('categories')}</h2>
      <ul className="ui-list" aria-label={t('categories')}>
        {categories.map((cat, n) => (
          <Card
            as="li"
            level={3}
            key={cat.id}
            data-testid="admin-category"
            titleId={`category-${cat.id}`}
            title={<Link to={`/admin/categories/${cat.id}`}>{cat.names[lang] ?? cat.names.en}</Link>}
            meta={<Usage usage={cat.usage} />}
          >
            <p>
              <img src={cat.imageUrl} alt="" width={48} height={48} />
              <span className="muted small">
                {t('subcategoryCount', { count: cat.subcategories.length })}
              </span>
            </p>
            <ItemActions
              kind="category"
              id={cat.id}
              label={cat.names[lang] ?? cat.names.en}
              first={n === 0}
              last={n === categories.length - 1}
              deletable={!cat.subcategories.length && !cat.usage.profiles && !cat.usage.projects}
              answer={answer}
            />
          </Card>
        ))}
      </ul>
      <Card level={2} title={t('addCategory')} titleId="add-category" as="section">
        <NamesForm
          form="create-category"
          intent="create"
          fields={{ kind: 'category' }}
          answer={answer}
          submit={t('actions.add')}
        />
      </Card>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
