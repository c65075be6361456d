import type React from 'react'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Avatar } from '~/components/ui/avatar'
import { joinPresent } from '~/lib/format'
import { useWords, type Wording } from '~/lib/words'
import type { SearchHit as Hit } from '#server/modules/profiles/contract.ts'
import { SaveFreelancerButton } from './save-button'
import { VerifiedBadge } from '~/components/verified-badge'

/** For a loader: words a freelancer's rating and rate as their card shows them. */
export function wordHit(words: Wording, h: Hit) {
  if (h.rating.count > 0) words.rating(h.rating.average)
  if (h.hourlyRate) words.money(h.hourlyRate.amountMinor, h.hourlyRate.currency)
}

/**
 * A freelancer in Find Freelancers' results (a client's page, and the saved freelancers), with the
 * way to invite them (decision 335); with `save`, their Save button: saved or not, and the page the
 * form posts to and comes back to (decision 336).
 */
export function FreelancerHit({
  hit: h,
  save,
  children,
}: {
  hit: Hit
  save?: { saved: boolean; action: string }
  /** What the page adds under the freelancer (support's note on a hiring request, decision 338). */
  children?: React.ReactNode
}) {
  const { t } = useTranslation(['profile', 'projects'])
  const words = useWords()
  return (
    <li className="card hit">
      <Avatar src={h.imageDisplayable && h.imageUrl ? `/api/v1/${h.imageUrl}` : null} alt="" size={64} />
      <div>
        <h2 id={`freelancer-${h.userId}-name`}>
          <Link to={`/profiles/freelancers/${h.userId}`}>{h.name}</Link>
          {h.verified ? (
            <>
              {' '}
              <VerifiedBadge />
            </>
          ) : null}
        </h2>
        <p className="item-title">{h.title}</p>
        <p className="muted small">
          {joinPresent([
            h.countryName,
            h.experienceLevel && t(`experience.${h.experienceLevel}`),
            h.availability && t(`availability.${h.availability}`),
            h.rating.count > 0 &&
              t('public.rating', { average: words.rating(h.rating.average), count: h.rating.count }),
          ])}
        </p>
        <p>{h.overview}</p>
        {h.skills.length ? (
          <ul className="chips">
            {h.skills.map((s) => (
              <li key={s.id}>{s.name}</li>
            ))}
          </ul>
        ) : null}
        {children}
      </div>
      <p className="hit-rate">
        {h.hourlyRate
          ? t('public.perHour', {
              amount: words.money(h.hourlyRate.amountMinor, h.hourlyRate.currency),
            })
          : ''}
        <br />
        <Link
          to={`/profiles/freelancers/${h.userId}#invite`}
          aria-label={t('projects:invitations.inviteName', { name: h.name })}
        >
          {t('projects:invitations.invite')}
        </Link>
        <br />
        <Link
          to={`/offers/new?freelancerId=${h.userId}`}
          aria-label={t('projects:offers.makeName', { name: h.name })}
        >
          {t('projects:offers.make')}
        </Link>
      </p>
      {save ? (
        <div className="hit-save">
          <SaveFreelancerButton
            userId={h.userId}
            saved={save.saved}
            action={save.action}
            describedBy={`freelancer-${h.userId}-name`}
          />
        </div>
      ) : null}
    </li>
  )
}
