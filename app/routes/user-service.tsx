import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/user-service'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { ServiceCard } from '~/components/content/pieces'
import { titled } from '~/lib/meta'
import { contentContract } from '#server/modules/content/contract.ts'
import { readCategories } from '~/lib/catalogue.server'

// /userService (docs/product.md §2, decision 243): the catalogue of services Workneer's engineers offer, the
// page the home page's "Services our engineers offer" leads to. The services (the admin area's, in
// the reader's language) grouped by catalogue area, each area with its ways into the marketplace:
// Find Freelancers and Find Projects filtered to it. Each service has an anchor (#slug) to link to.
export async function loader({ context }: Route.LoaderArgs) {
  const api = apiFor(context, { token: null })
  try {
    const [categories, services] = await Promise.all([
      readCategories(context),
      api.call(contentContract.services),
    ])
    const areas = categories.data
      .map((c) => ({
        id: c.id,
        slug: c.slug,
        name: c.name,
        description: c.description,
        image: c.attachmentUrl,
        services: services.data.filter((s) => s.areaSlug === c.slug),
      }))
      .filter((a) => a.services.length)
    return { areas, title: getInstance(context).t('services:title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function UserService({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('services')
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{t('title')}</h1>
          <p className="lead">{t('lead')}</p>
        </div>
      </header>
      <div className="container page">
        {loaderData.areas.length ? null : <p>{t('empty')}</p>}
        {loaderData.areas.map((area) => (
          <section key={area.id} id={area.slug} aria-labelledby={`area-${area.slug}`} className="section">
            <h2 id={`area-${area.slug}`} className="section-title">
              <img src={area.image} alt="" width="40" height="40" /> {area.name}
            </h2>
            <p>{area.description}</p>
            <p className="cta-actions">
              <Link to={`/freelancers?category=${area.id}`} className="button button-accent">
                {t('findFreelancers', { area: area.name })}
              </Link>{' '}
              <Link
                to={`/projects/getprojects?search=all&categoryId=${area.id}`}
                className="button button-ghost"
              >
                {t('findProjects', { area: area.name })}
              </Link>
            </p>
            <ul className="service-grid">
              {area.services.map((s) => (
                <ServiceCard key={s.id} id={s.slug} area={area.name} title={s.title} body={s.body} />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
