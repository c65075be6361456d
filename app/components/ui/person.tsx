import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Avatar } from './avatar'
import { useWords } from '~/lib/words'

/** An average rating as stars and a number, with the count in words ("4.8 · 12 reviews"). */
export function Rating({ value, count }: { value: number; count: number }) {
  const { t } = useTranslation('ui')
  const words = useWords()
  if (!count) return <span className="ui-rating muted">{t('rating.none')}</span>
  const rounded = Math.round(value)
  const shown = words.rating(value)
  return (
    <span className="ui-rating">
      <span className="ui-rating-stars" aria-hidden="true">
        {'★'.repeat(rounded)}
        {'☆'.repeat(5 - rounded)}
      </span>{' '}
      <span>{t('rating.summary', { value: shown, count })}</span>
    </span>
  )
}

/** A person as the marketplace shows one: avatar, name linking to the profile, a line under it, rating. */
export function Person({
  name,
  imageUrl,
  href,
  subtitle,
  rating,
  size = 48,
}: {
  name: string
  imageUrl?: string | null
  href?: string
  subtitle?: string | null
  rating?: { value: number; count: number }
  size?: number
}) {
  return (
    <span className="ui-person" data-testid="person">
      <Avatar src={imageUrl} alt="" size={size} />
      <span>
        {href ? (
          <Link className="ui-person-name" to={href}>
            {name}
          </Link>
        ) : (
          <span className="ui-person-name">{name}</span>
        )}
        {subtitle ? <span className="ui-person-sub">{subtitle}</span> : null}
        {rating ? (
          <span className="ui-person-sub">
            <Rating value={rating.value} count={rating.count} />
          </span>
        ) : null}
      </span>
    </span>
  )
}
