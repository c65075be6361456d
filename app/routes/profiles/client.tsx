import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/client'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getUser } from '~/lib/session.server'
import { Avatar } from '~/components/ui/avatar'
import { joinPresent } from '~/lib/format'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { DefinitionList } from '~/components/ui/definition-list'
import { profilesContract } from '#server/modules/profiles/contract.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'
import { ProfileReviews, wordProfileReviews } from './reviews'
import stylesheet from '../profile/profile.css?url'
import { publicPageHeaders } from '~/lib/public-page'
import { PaymentVerifiedBadge, VerifiedBadge } from '~/components/verified-badge'

// The public profile of an individual client (/profiles/clients/:id) or a company
// (/profiles/companies/:id): one module, the route id says which.
export const headers = publicPageHeaders

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: loaderData
        ? `${loaderData.profile.companyName || loaderData.profile.name} – Workneer`
        : 'Workneer',
    },
  ]
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.id)) throw new Response('Not Found', { status: 404 })
  const company = url.pathname.startsWith('/profiles/companies/')
  try {
    const api = apiFor(context, { token: null })
    const profile = company
      ? await api.call(profilesContract.companyPublic, { params: { id: Number(params.id) } })
      : await api.call(profilesContract.clientPublic, { params: { id: Number(params.id) } })
    const reviews = await api.call(projectsContract.publicReviews, {
      params: { userId: profile.userId },
      query: { page: 1, pageSize: 20 },
    })
    const words = wordsFor(getLocale(context))
    words.date(profile.memberSince)
    wordProfileReviews(words, reviews)
    return { profile, reviews, words: words.words, own: getUser(context)?.id === profile.userId }
  } catch (error) {
    throwApiError(error)
  }
}

export default function ClientProfile({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  const { profile: p, own } = loaderData
  const company = p.kind === 'company'
  return (
    <main id="main" className="container page public-profile">
      <ProfileHead profile={p} own={own} />
      <section className="card profile-section">
        <h2>{t('public.about')}</h2>
        <Facts profile={p} />
      </section>
      {p.who ? (
        <section className="card profile-section">
          <h2>{t(company ? 'sections.whoAreWe' : 'sections.whoIAm')}</h2>
          <p className="pre-line">{p.who}</p>
        </section>
      ) : null}
      {p.what ? (
        <section className="card profile-section">
          <h2>{t(company ? 'sections.whatDoWeDo' : 'sections.whatIDo')}</h2>
          <p className="pre-line">{p.what}</p>
        </section>
      ) : null}
      {p.description ? (
        <section className="card profile-section">
          <h2>{t('sections.description')}</h2>
          <p className="pre-line">{p.description}</p>
        </section>
      ) : null}
      <ProfileReviews reviews={loaderData.reviews} />
    </main>
  )
}

type Profile = Route.ComponentProps['loaderData']['profile']

/** The picture, the name, what kind of client, where and since when; and Edit for the client themself. */
function ProfileHead({ profile: p, own }: { profile: Profile; own: boolean }) {
  const { t } = useTranslation('profile')
  const words = useWords()
  const company = p.kind === 'company'
  return (
    <header className="profile-head">
      <Avatar
        src={p.imageDisplayable && p.imageUrl ? `/api/v1/${p.imageUrl}` : null}
        alt=""
        size={112}
        className="profile-avatar"
      />
      <div>
        <h1>{(company && p.companyName) || p.name}</h1>
        {p.verified || p.paymentVerified ? (
          <p>
            {p.verified ? <VerifiedBadge /> : null} {p.paymentVerified ? <PaymentVerifiedBadge /> : null}
          </p>
        ) : null}
        <p className="lead">{company ? t('public.company') : t('public.individual')}</p>
        <p className="muted" data-testid="profile-line">
          {joinPresent([
            joinPresent([p.city, p.countryName], ', '),
            t('public.memberSince', { date: words.date(p.memberSince) }),
          ])}
        </p>
      </div>
      <div>
        {own ? (
          <Link to="/profile" className="button">
            {t('public.edit')}
          </Link>
        ) : null}
      </div>
    </header>
  )
}

/** What is known of the client: contact, industry, size, founding year, website, categories (label over value, as on a freelancer's). */
function Facts({ profile: p }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  return (
    <DefinitionList
      items={[
        [t('public.contact'), p.kind === 'company' ? p.name : null],
        [t('fields.industry'), p.industry?.name],
        [t('fields.companySize'), p.companySize ? t(`companySize.${p.companySize}`) : null],
        [t('fields.foundedYear'), p.foundedYear],
        [
          t('fields.website'),
          p.website ? (
            <a href={p.website} rel="nofollow noopener noreferrer">
              {p.website}
            </a>
          ) : null,
        ],
        [
          t('fields.category'),
          p.category ? [p.category.name, ...p.subcategories.map((s) => s.name)].join(', ') : null,
        ],
      ]}
    />
  )
}
