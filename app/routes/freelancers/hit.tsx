import { useTranslation } from '~/lib/use-translation'
import { Link } from '~/lib/link'
import { Kept } from '~/lib/kept-markup'
import { Avatar } from '~/components/ui/avatar'
import { formatMoney, formatRating, joinPresent } from '~/lib/format'
import type { SearchHit as Hit } from '../../../server/modules/profiles/contract'

/**
 * A freelancer in Find Freelancers' results. It reads the same for every client in a language until
 * the profile changes, so the server renders it once for what it shows and keeps it as HTML, as the
 * project cards (decisions 279, 284).
 */
export function FreelancerHit({ hit }: { hit: Hit }) {
  return <Kept as="li" className="card hit" component={FreelancerHitContent} props={{ hit }} />
}

function FreelancerHitContent({ hit: h }: { hit: Hit }) {
  const { t, i18n } = useTranslation('profile')
  return (
    <>
      <Avatar src={h.imageDisplayable && h.imageUrl ? `/api/v1/${h.imageUrl}` : null} alt="" size={64} />
      <div>
        <h2>
          <Link to={`/profiles/freelancers/${h.userId}`}>{h.name}</Link>
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
    </>
  )
}
