import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { Route } from './+types/freelancer'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getUser, requireUser } from '~/lib/session.server'
import { Avatar } from '~/components/ui/avatar'
import { joinPresent } from '~/lib/format'
import { useWords, wordsFor, type Wording } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { DefinitionList } from '~/components/ui/definition-list'
import { profilesContract } from '#server/modules/profiles/contract.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'
import { ProfileReviews, wordProfileReviews } from './reviews'
import stylesheet from '../profile/profile.css?url'
import { publicPageHeaders } from '~/lib/public-page'
import { favouriteIntent, savedAmong } from '../freelancers/favourites.server'
import { SaveFreelancerButton } from '../freelancers/save-button'
import { InviteForm } from './invite-form'
import { inviteAction, invitableProjects } from './invite.server'
import { VerifiedBadge } from '~/components/verified-badge'

// A freelancer's public profile: anyone may read it (a visitor, a client comparing proposals).
export const headers = publicPageHeaders

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData
    ? [
        { title: `${loaderData.profile.name} – ${loaderData.profile.title || 'Workneer'}` },
        { name: 'description', content: loaderData.profile.overview.slice(0, 160) },
      ]
    : [{ title: 'Workneer' }]
}

export async function loader({ context, params, url }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.id)) throw new Response('Not Found', { status: 404 })
  try {
    const api = apiFor(context, { token: null })
    const profile = await api.call(profilesContract.freelancerPublic, { params: { id: Number(params.id) } })
    const reviews = await api.call(projectsContract.publicReviews, {
      params: { userId: profile.userId },
      query: { page: 1, pageSize: 20 },
    })
    // A client or a company may save the freelancer (decision 336); null for anyone else.
    const saved = await savedAmong(context, [profile.userId])
    const words = wordsFor(getLocale(context))
    wordProfile(words, profile)
    wordProfileReviews(words, reviews)
    return {
      profile,
      reviews,
      words: words.words,
      own: getUser(context)?.id === profile.userId,
      saved: saved ? saved.includes(profile.userId) : null,
      // A signed-in client invites the freelancer to one of their open projects (decision 335).
      invite: await invitableProjects(context, profile.userId),
      invited: Number(url.searchParams.get('invited')) || null,
    }
  } catch (error) {
    throwApiError(error)
  }
}

/** Save / Remove (a client or a company, decision 336), else an invitation (decision 335); back to the profile. */
export async function action({ context, params, request, url }: Route.ActionArgs) {
  requireUser(context, url)
  if (!/^\d{1,9}$/.test(params.id)) throw new Response('Not Found', { status: 404 })
  const form = await request.formData()
  return (
    (await favouriteIntent(context, form, url.pathname)) ?? inviteAction(context, form, Number(params.id))
  )
}

export default function FreelancerProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile: p, own, saved } = loaderData
  return (
    <main id="main" className="container page public-profile">
      <ProfileHead profile={p} own={own} saved={saved} invite={!!loaderData.invite} />
      <About profile={p} />
      {p.portfolios.length ? <Portfolios items={p.portfolios} /> : null}
      {p.employmentHistory.length ? <Employment items={p.employmentHistory} /> : null}
      {p.educations.length ? <Educations items={p.educations} /> : null}
      {p.certifications.length ? <Certifications items={p.certifications} /> : null}
      <ProfileReviews reviews={loaderData.reviews} />
      {loaderData.invite ? (
        <InviteForm
          projects={loaderData.invite}
          name={p.name}
          invited={loaderData.invited}
          lastResult={(actionData as { invite?: unknown } | undefined)?.invite}
        />
      ) : null}
    </main>
  )
}

type Profile = Route.ComponentProps['loaderData']['profile']

/** A month kept as "YYYY-MM" in words ("März 2015"); anything else as it is, as `formatMonth` does. */
const monthOf = (words: Wording, month: string) =>
  /^\d{4}-\d{2}$/.test(month) ? words.date(month, 'month') : month

/** The rating, rate and months the profile shows, for the loader to word. */
function wordProfile(words: Wording, p: Profile) {
  if (p.rating.count) words.rating(p.rating.average)
  if (p.hourlyRate) words.money(p.hourlyRate.amountMinor, p.hourlyRate.currency)
  const months = [
    ...p.employmentHistory.flatMap((e) => [e.startMonth, e.endMonth]),
    ...p.certifications.map((c) => c.issuedMonth),
  ]
  for (const month of months) if (month) monthOf(words, month)
}

/** The picture, name and title, where, the rating and the hourly rate; and Edit for the freelancer themself. */
function ProfileHead({
  profile: p,
  own,
  saved,
  invite,
}: {
  profile: Profile
  own: boolean
  saved: boolean | null
  invite: boolean
}) {
  const { t } = useTranslation(['profile', 'projects'])
  const words = useWords()
  return (
    <header className="profile-head">
      <Avatar
        src={p.imageDisplayable && p.imageUrl ? `/api/v1/${p.imageUrl}` : null}
        alt=""
        size={112}
        className="profile-avatar"
      />
      <div>
        <h1 id="profile-name">{p.name}</h1>
        {p.verified ? <VerifiedBadge /> : null}
        <p className="lead">{p.title}</p>
        <p className="muted" data-testid="profile-line">
          {joinPresent([
            joinPresent([p.city, p.countryName], ', '),
            p.rating.count
              ? t('public.rating', {
                  average: words.rating(p.rating.average),
                  count: p.rating.count,
                })
              : t('public.noReviews'),
          ])}
        </p>
      </div>
      <div>
        {p.hourlyRate ? (
          <p className="hit-rate">
            {t('public.perHour', {
              amount: words.money(p.hourlyRate.amountMinor, p.hourlyRate.currency),
            })}
          </p>
        ) : null}
        {own ? (
          <Link to="/profile" className="button">
            {t('public.edit')}
          </Link>
        ) : null}
        {saved !== null ? (
          <SaveFreelancerButton userId={p.userId} saved={saved} describedBy="profile-name" />
        ) : null}
        {invite ? (
          <>
            <a href="#invite" className="button">
              {t('projects:invitations.invite')}
            </a>{' '}
            <Link to={`/offers/new?freelancerId=${p.userId}`} className="button">
              {t('projects:offers.make')}
            </Link>
          </>
        ) : null}
      </div>
    </header>
  )
}

function About({ profile: p }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  return (
    <section className="card profile-section">
      <h2>{t('public.about')}</h2>
      <Facts profile={p} />
      {p.overview ? <p className="lead-text pre-line">{p.overview}</p> : null}
      {p.description ? <p className="pre-line">{p.description}</p> : null}
      {p.skills.length ? (
        <>
          <h3>{t('public.skills')}</h3>
          <ul className="chips">
            {p.skills.map((s) => (
              <li key={s.id}>{s.name}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}

/**
 * Experience, availability, category, languages and the rate sheet: each label over its value in
 * the design system's list, so a pair stays together in one cell of the grid (dt and dd as cells of
 * their own fell out of line).
 */
function Facts({ profile: p }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  return (
    <DefinitionList
      items={[
        [t('fields.experienceLevel'), p.experienceLevel ? t(`experience.${p.experienceLevel}`) : null],
        [t('fields.yearsOfExperience'), p.yearsOfExperience],
        [t('fields.availability'), p.availability ? t(`availability.${p.availability}`) : null],
        [t('fields.category'), p.category?.name],
        [
          t('sections.languages'),
          p.languages.map((l) => `${l.name} (${t(`languageLevel.${l.level}`)})`).join(', '),
        ],
        [
          t('public.rateSheet'),
          p.rateSheet ? (
            <a className="file-card" href={`/api/v1/${p.rateSheet.url}`}>
              {t('files.download', { name: p.rateSheet.name })}
            </a>
          ) : null,
        ],
      ]}
    />
  )
}

function Portfolios({ items }: { items: Profile['portfolios'] }) {
  const { t } = useTranslation('profile')
  return (
    <section className="card profile-section">
      <h2>{t('sections.portfolios')}</h2>
      <ul className="item-list">
        {items.map((item) => (
          <li key={item.id} className="item">
            <h3 className="item-title">
              {item.projectUrl ? (
                <a href={item.projectUrl} rel="nofollow noopener noreferrer">
                  {item.title}
                </a>
              ) : (
                item.title
              )}
            </h3>
            {item.image?.displayable ? (
              <img
                src={`/api/v1/${item.image.url}`}
                alt={item.title}
                className="portfolio-image"
                width={320}
              />
            ) : null}
            {item.image && !item.image.displayable ? (
              <a className="file-card" href={`/api/v1/${item.image.url}`} download>
                {t('files.download', { name: item.image.name })}
              </a>
            ) : null}
            {item.description ? <p className="pre-line">{item.description}</p> : null}
            {item.document ? (
              <a className="file-card" href={`/api/v1/${item.document.url}`}>
                {t('files.download', { name: item.document.name })}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

function Employment({ items }: { items: Profile['employmentHistory'] }) {
  const { t } = useTranslation('profile')
  const words = useWords()
  return (
    <section className="card profile-section">
      <h2>{t('sections.employmentHistory')}</h2>
      <ul className="item-list">
        {items.map((e) => (
          <li key={e.id} className="item">
            <p className="item-title">
              {e.role}, {e.company}
            </p>
            <p className="muted">
              {joinPresent([
                `${monthOf(words, e.startMonth)} – ${e.endMonth ? monthOf(words, e.endMonth) : t('fields.present')}`,
                e.countryName,
              ])}
            </p>
            {e.description ? <p className="pre-line">{e.description}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

const yearRange = (a: number | null, b: number | null) => (a || b ? `${a ?? ''}–${b ?? ''}` : '')

function Educations({ items }: { items: Profile['educations'] }) {
  const { t } = useTranslation('profile')
  return (
    <section className="card profile-section">
      <h2>{t('sections.educations')}</h2>
      <ul className="item-list">
        {items.map((e) => (
          <li key={e.id} className="item">
            <p className="item-title">
              {e.degree}
              {e.fieldOfStudy ? `, ${e.fieldOfStudy}` : ''}
            </p>
            <p className="muted">
              {e.school} {yearRange(e.startYear, e.endYear)}
            </p>
            {e.description ? <p className="pre-line">{e.description}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

function Certifications({ items }: { items: Profile['certifications'] }) {
  const { t } = useTranslation('profile')
  const words = useWords()
  return (
    <section className="card profile-section">
      <h2>{t('sections.certifications')}</h2>
      <ul className="item-list">
        {items.map((c) => (
          <li key={c.id} className="item">
            <p className="item-title">
              {c.credentialUrl ? (
                <a href={c.credentialUrl} rel="nofollow noopener noreferrer">
                  {c.name}
                </a>
              ) : (
                c.name
              )}
            </p>
            <p className="muted">{joinPresent([c.issuer, c.issuedMonth && monthOf(words, c.issuedMonth)])}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}
