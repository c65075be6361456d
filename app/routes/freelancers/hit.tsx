import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Avatar } from '~/components/ui/avatar'
import { formatMoney, formatRating, joinPresent } from '~/lib/format'
import type { SearchHit as Hit } from '#server/modules/profiles/contract.ts'
import { VerifiedBadge } from '~/components/verified-badge'

/** A freelancer in Find Freelancers' results. */
export function FreelancerHit({ hit: h }: { hit: Hit }) {
  const { t, i18n } = useTranslation('profile')
  return (
    <li className="card hit">
      <Avatar src={h.imageDisplayable && h.imageUrl ? `/api/v1/${h.imageUrl}` : null} alt="" size={64} />
      <div>
        <h2>
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
              t('public.rating', {
                average: formatRating(h.rating.average, i18n.language),
                count: h.rating.count,
              }),
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
      </div>
      <p className="hit-rate">
        {h.hourlyRate
          ? t('public.perHour', {
              amount: formatMoney(h.hourlyRate.amountMinor, h.hourlyRate.currency, i18n.language),
            })
          : ''}
      </p>
    </li>
  )
}
