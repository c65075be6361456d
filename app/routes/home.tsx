import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/home'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { SearchBox } from '~/components/shell/search-box'
import { HomeBoxCard, LogoItem, ServiceCard } from '~/components/content/pieces'
import { categoryHref } from '~/components/shell/mega-menu'
import { contentContract } from '#server/modules/content/contract.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'
import { formatMoney, formatMoneyRange } from '~/lib/format'
import { timeAgo } from '~/lib/time-ago'
import { getLocale } from '~/middleware/i18next'
import { getUser } from '~/lib/session.server'
import { can, type Permission } from '#server/modules/identity/permissions.ts'
import { readCategories } from '~/lib/catalogue.server'
import { publicPageHeaders } from '~/lib/public-page'

// The closing call to action. A visitor is asked to sign up; someone signed in is sent to the work
// their account does, gated by the same permissions as the menus, never back to sign-up (which
// would only send them home again). Labels are keys of the content namespace.
const visitorCtas = [
  { to: '/auth/gotosign', label: 'home.ctaClient' },
  { to: '/auth/gotosign', label: 'home.ctaFreelancer' },
]
const signedInCtas: ReadonlyArray<{ permission: Permission; to: string; label: string }> = [
  { permission: 'projects.create', to: '/projects/create', label: 'home.ctaPostProject' },
  { permission: 'freelancers.find', to: '/freelancers', label: 'home.ctaFindFreelancers' },
  { permission: 'projects.find', to: '/projects/getprojects?search=all', label: 'home.ctaFindWork' },
  { permission: 'dashboard.view', to: '/dashboard', label: 'home.ctaDashboard' },
]

/** The two calls to action for this visitor or account. */
function ctasFor(roles: readonly number[] | null | undefined) {
  if (!roles) return visitorCtas
  return signedInCtas
    .filter((c) => can(roles, c.permission))
    .slice(0, 2)
    .map(({ to, label }) => ({ to, label }))
}

export const headers = publicPageHeaders

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData?.title ?? 'Workneer' },
    { name: 'description', content: loaderData?.description ?? '' },
  ]
}

export async function loader({ context }: Route.LoaderArgs) {
  const t = getInstance(context).t
  const roles = getUser(context)?.roles ?? null
  const api = apiFor(context, { token: null })
  try {
    const [categories, boxes, services, logos, recent] = await Promise.all([
      readCategories(context),
      api.call(contentContract.homeBoxes),
      api.call(contentContract.services),
      api.call(contentContract.logos),
      // Recent open projects; the home page still shows without them.
      api
        .call(projectsContract.search, { query: { sort: 'newest', page: 1, pageSize: 4 } })
        .catch(() => ({ data: [] })),
    ])
    const projects = recent.data.map((p) => ({
      id: p.id,
      title: p.title,
      excerpt: p.excerpt,
      category: p.category?.name ?? null,
      // An hourly project shows its range of rates (the highest alone when the lowest is unknown).
      budget:
        p.budgetType === 'hourly'
          ? formatMoneyRange(p.budgetMinMinor ?? p.budgetMinor, p.budgetMinor, p.currency, getLocale(context))
          : formatMoney(p.budgetMinor, p.currency, getLocale(context)),
      hourly: p.budgetType === 'hourly',
      hoursPerWeek: p.hoursPerWeek,
      posted: p.publishedAt ?? p.createdAt,
    }))
    return {
      ctas: ctasFor(roles),
      signedIn: !!roles,
      categories: categories.data,
      boxes: boxes.data,
      services: services.data,
      logos: logos.data,
      projects,
      locale: getLocale(context),
      now: Date.now(),
      title: t('home.metaTitle'),
      description: t('home.metaDescription'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

type HomeData = Route.ComponentProps['loaderData']

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t: tc } = useTranslation('content')
  return (
    <main id="main">
      <Hero data={loaderData} />

      <HomeSection id="boxes" title={tc('home.boxesTitle')}>
        <ol className="box-grid">
          {loaderData.boxes.map((b) => (
            <HomeBoxCard key={b.id} icon={b.icon} title={b.title} body={b.body} />
          ))}
        </ol>
      </HomeSection>

      <Categories data={loaderData} />

      {loaderData.projects.length ? <RecentProjects data={loaderData} /> : null}

      <Services data={loaderData} />

      <HomeSection id="partners" title={tc('home.partnersTitle')} alt centred>
        <ul className="logo-row">
          {loaderData.logos.map((l) => (
            <LogoItem key={l.id} name={l.name} imageUrl={l.imageUrl} linkUrl={l.linkUrl} />
          ))}
        </ul>
      </HomeSection>

      <CallToAction data={loaderData} />
    </main>
  )
}

function Hero({ data }: { data: HomeData }) {
  const { t } = useTranslation()
  const { t: tc } = useTranslation('content')
  return (
    <section className="hero">
      <div className="container hero-inner">
        <h1>{t('home.heroTitle')}</h1>
        <p className="lead">{t('home.heroLead')}</p>
        <h2 className="visually-hidden">{tc('home.searchTitle')}</h2>
        <SearchBox variant="hero" />
        <ul className="hero-tags">
          {data.categories.slice(0, 4).map((c) => (
            <li key={c.id}>
              <Link to={categoryHref(c.name)}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

function Categories({ data }: { data: HomeData }) {
  const { t } = useTranslation()
  return (
    <HomeSection id="categories" title={t('home.categoriesTitle')} alt>
      <ul className="category-grid">
        {data.categories.map((c) => (
          <li key={c.id} className="card category-card">
            <Link to={categoryHref(c.name)}>
              <img src={c.attachmentUrl} alt="" width="56" height="56" loading="lazy" />
              <h3>{c.name}</h3>
              <p>{c.description}</p>
            </Link>
          </li>
        ))}
      </ul>
    </HomeSection>
  )
}

/** The newest open projects, with how long ago each was posted. */
function RecentProjects({ data }: { data: HomeData }) {
  const { t: tc } = useTranslation('content')
  return (
    <HomeSection id="recent" title={tc('home.recentTitle')}>
      <ul className="project-grid">
        {data.projects.map((p) => (
          <li key={p.id} className="card project-card">
            <p className="post-meta">
              {p.category ? <span>{p.category} · </span> : null}
              {/* The server's clock, so the server's HTML and the hydrated page agree. */}
              <time dateTime={p.posted}>{timeAgo(p.posted, data.locale, data.now)}</time>
            </p>
            <h3>
              <Link to={`/projects/details/${p.id}`}>{p.title}</Link>
            </h3>
            <p>{p.excerpt}</p>
            <p className="project-budget">
              {!p.hourly
                ? p.budget
                : p.hoursPerWeek
                  ? tc('home.rateRange', { range: p.budget, count: p.hoursPerWeek })
                  : tc('home.perHour', { amount: p.budget })}
            </p>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/projects/getprojects?search=all">{tc('home.allProjects')}</Link>
      </p>
    </HomeSection>
  )
}

function Services({ data }: { data: HomeData }) {
  const { t: tc } = useTranslation('content')
  const { t: ts } = useTranslation('services')
  const areaName = new Map(data.categories.map((c) => [c.slug, c.name]))
  return (
    <HomeSection id="services" title={tc('home.servicesTitle')}>
      <ul className="service-grid">
        {data.services.map((s) => (
          <ServiceCard key={s.id} area={areaName.get(s.areaSlug) ?? ''} title={s.title} body={s.body} />
        ))}
      </ul>
      <p>
        <Link to="/userService">{ts('homeLink')}</Link>
      </p>
    </HomeSection>
  )
}

function CallToAction({ data }: { data: HomeData }) {
  const { t: tc } = useTranslation('content')
  return (
    <section className="section" aria-labelledby="cta-heading">
      <div className="container cta">
        <div>
          <h2 id="cta-heading">{tc('home.ctaTitle')}</h2>
          <p>{tc(data.signedIn ? 'home.ctaBodySignedIn' : 'home.ctaBody')}</p>
        </div>
        <p className="cta-actions">
          {data.ctas.map((c, i) => (
            <Link
              key={c.label}
              to={c.to}
              className={i === 0 ? 'button button-accent' : 'button button-ghost'}
            >
              {tc(c.label)}
            </Link>
          ))}
        </p>
      </div>
    </section>
  )
}

/** One band of the home page under its heading. */
function HomeSection({
  id,
  title,
  alt = false,
  centred = false,
  children,
}: {
  id: string
  title: string
  /** On the alternate background. */
  alt?: boolean
  centred?: boolean
  children: React.ReactNode
}) {
  return (
    <section className={alt ? 'section section-alt' : 'section'} aria-labelledby={`${id}-heading`}>
      <div className="container">
        <h2 id={`${id}-heading`} className={centred ? 'section-title section-title-center' : 'section-title'}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
