import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'

// The reviews section of a public profile (freelancer, client or company): only reviews that are
// visible (both sides wrote, or 14 days passed), newest first, with their average.
export interface ProfileReviewsData {
  average: number
  count: number
  data: Array<{
    id: number
    rating: number
    body: string
    createdAt: string
    projectTitle: string
    author: { name: string }
  }>
}

/** The average and days `ProfileReviews` shows, for its page's loader to word. */
export function wordProfileReviews(words: Wording, reviews: ProfileReviewsData) {
  if (reviews.count) words.rating(reviews.average)
  for (const r of reviews.data) words.date(r.createdAt)
}

export function ProfileReviews({ reviews }: { reviews: ProfileReviewsData }) {
  const { t } = useTranslation(['profile', 'projects'])
  const words = useWords()
  return (
    <section className="card profile-section" aria-labelledby="profile-reviews" data-testid="profile-reviews">
      <h2 id="profile-reviews">{t('profile:public.reviews')}</h2>
      {reviews.count ? (
        <>
          <p className="lead">
            {t('profile:public.rating', {
              average: words.rating(reviews.average),
              count: reviews.count,
            })}
          </p>
          <ul className="item-list">
            {reviews.data.map((r) => (
              <li key={r.id} className="item" data-testid="profile-review">
                <p className="item-title">
                  {t('projects:reviews.stars', { count: r.rating })} —{' '}
                  {t('projects:reviews.by', { name: r.author.name, project: r.projectTitle })}
                </p>
                <p className="pre-line">{r.body}</p>
                <p className="muted small">{words.date(r.createdAt)}</p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">{t('profile:public.noReviews')}</p>
      )}
    </section>
  )
}
