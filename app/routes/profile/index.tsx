import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/index'
import { apiFor } from '~/lib/api.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { ProfileCompleteness, profileSectionOf } from '~/components/profile-completeness'
import { Avatar } from '~/components/ui/avatar'
import { ButtonLink } from '~/components/ui/button'
import { SectionNav } from '~/components/ui/section-nav'
import { catalogueContract } from '#server/modules/catalogue/contract.ts'
import { profilesContract as pc } from '#server/modules/profiles/contract.ts'
import type { ActionResult } from './fields'
import { kindOf, sectionTitle, sectionsOf } from './kind'
import { lazyPart, ProfileSection, type SectionState } from './section'
import { saveSection, saveUpload } from './sections.server'
import stylesheet from './profile.css?url'
import { readCategoryTree } from '~/lib/catalogue.server'

// /profile: the signed-in user's own profile, as sections (decisions 130, 312): each a card that shows
// what it holds and opens its own form (`?edit=`), listed beside the page with the completeness and
// what to add next.

// Each kind of account's sections, and each section's form, load when the page shows them: a client
// never downloads the freelancer's sections, and nobody a form they do not open (decision 327). No
// Suspense boundary: hydration waits for the sections' code with the server's HTML on screen, and a
// navigation (a transition) keeps the page before, or the section's view, until its code is there.
const FreelancerSections = lazyPart(() => import('./freelancer'), 'FreelancerSections')
const ClientSections = lazyPart(() => import('./client'), 'ClientSections')
const ImageForm = lazyPart(() => import('./image-form'), 'ImageForm')

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? 'Workneer' }]
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requirePermission(context, url, 'profile.view')
  const kind = kindOf(user.roles)
  const api = apiFor(context)
  const title = getInstance(context).t('profile:page.title')
  const state = { saved: url.searchParams.get('saved'), edit: url.searchParams.get('edit') }
  if (kind === 'none')
    return {
      kind,
      title,
      state,
      freelancer: null,
      client: null,
      tree: [],
      countries: [],
      languages: [],
      industries: [],
    }
  const [freelancer, client, tree, countries, languages, industries] = await Promise.all([
    kind === 'freelancer' ? api.call(pc.freelancerMine) : null,
    kind === 'company' ? api.call(pc.companyMine) : kind === 'individual' ? api.call(pc.clientMine) : null,
    readCategoryTree(context),
    api.call(catalogueContract.countries),
    kind === 'freelancer' ? api.call(catalogueContract.languages) : { data: [] },
    kind === 'freelancer' ? { data: [] } : api.call(catalogueContract.industries),
  ])
  return {
    kind,
    title,
    state,
    freelancer,
    client,
    tree: tree.data,
    countries: countries.data,
    languages: languages.data,
    industries: industries.data,
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  const user = requirePermission(context, url, 'profile.view')
  // Uploads name their target in the URL, so the multipart body can stream on to the API unread.
  const upload = url.searchParams.get('upload')
  return upload
    ? saveUpload(context, request, kindOf(user.roles), upload, url.searchParams.get('item'))
    : saveSection(context, request)
}

export default function MyProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const { kind } = loaderData
  if (kind === 'none') {
    return (
      <main id="main" className="container page">
        <h1>{t('page.title')}</h1>
        <p>{t('page.noProfile')}</p>
      </main>
    )
  }
  const state: SectionState = { last: (actionData ?? null) as ActionResult | null, ...loaderData.state }
  const person = (loaderData.freelancer ?? loaderData.client)!
  const { percent, missing } = person.completeness
  const toAdd = new Set(missing.map((m) => profileSectionOf[m] ?? m))
  const sections = sectionsOf(kind)
  const publicHref =
    kind === 'freelancer'
      ? `/profiles/freelancers/${person.userId}`
      : kind === 'company'
        ? `/profiles/companies/${person.userId}`
        : `/profiles/clients/${person.userId}`
  const image = person.imageDisplayable && person.imageUrl ? `/api/v1/${person.imageUrl}` : null
  return (
    <main id="main" className="container page">
      <header className="profile-head">
        <Avatar src={image} alt="" size={96} className="profile-avatar" />
        <div>
          <h1>{t('page.title')}</h1>
          <p className="lead">{person.name}</p>
        </div>
        <ButtonLink to={publicHref}>{t('page.viewPublic')}</ButtonLink>
      </header>
      <div className="ui-with-sidebar">
        <aside>
          <ProfileCompleteness percent={percent} missing={missing} title={t('completeness.title')} />
          <SectionNav
            label={t('nav.label')}
            items={sections.map((id) => ({
              href: `#${id}`,
              label: t(sectionTitle(id, kind)),
              note: toAdd.has(id) ? t('nav.toAdd') : undefined,
            }))}
          />
        </aside>
        <div>
          <ImageSection person={person} image={image} state={state} />
          {kind === 'freelancer' ? (
            <FreelancerSections p={loaderData.freelancer!} data={loaderData} state={state} />
          ) : (
            <ClientSections
              p={loaderData.client!}
              company={kind === 'company'}
              data={loaderData}
              state={state}
            />
          )}
        </div>
      </div>
    </main>
  )
}

/** The profile picture: shown, and replaced with an upload of a new one. */
function ImageSection({
  person,
  image,
  state,
}: {
  person: { imageUrl: string | null; imageDisplayable: boolean }
  image: string | null
  state: SectionState
}) {
  const { t } = useTranslation('profile')
  return (
    <ProfileSection
      id="image"
      title={t('sections.image')}
      state={state}
      view={
        person.imageUrl && !person.imageDisplayable ? (
          <p className="hint">{t('image.notDisplayable')}</p>
        ) : image ? (
          <Avatar src={image} alt={t('sections.image')} size={96} className="profile-avatar" />
        ) : (
          <p className="hint">{t('page.empty')}</p>
        )
      }
    >
      <ImageForm state={state} />
    </ProfileSection>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
