import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { Card } from '~/components/ui/card'
import { Progress } from '~/components/ui/progress'

// Profile completeness as the profiles service computes it (GET freelancers|clients|companies/profile
// and the dashboard both carry it): the percentage and the next section to add, one click from the
// section of /profile where it is edited. The dashboard and the profile editor show this one card.

/** The section of /profile where each completeness item is edited (the ids of its cards). */
export const profileSectionOf: Record<string, string> = {
  image: 'image',
  titleOverview: 'headline',
  description: 'about',
  experienceLevel: 'rates',
  yearsOfExperience: 'rates',
  availability: 'rates',
  hourlyRate: 'rates',
  country: 'personal',
  languages: 'languages',
  categorization: 'categories',
  educations: 'education',
  employmentHistory: 'experience',
  portfolios: 'portfolio',
  basicDetails: 'basics',
  whoIAm: 'about',
  whatIDo: 'about',
  whoAreWe: 'about',
  whatDoWeDo: 'about',
}

export function ProfileCompleteness({
  percent,
  missing,
  title,
  id = 'profile-completeness',
}: {
  percent: number
  missing: string[]
  title: string
  id?: string
}) {
  const { t } = useTranslation(['dashboard', 'profile'])
  const next = missing[0]
  return (
    <Card as="section" level={2} title={title} titleId={id}>
      <Progress
        percent={percent}
        text={t('dashboard:profile.percent', { percent })}
        labelledBy={id}
        data-testid="completeness"
      />
      {next ? (
        <p>
          <Link to={`/profile#${profileSectionOf[next] ?? next}`}>
            {t('dashboard:profile.next', { section: t(`profile:sections.${next}`) })}
          </Link>
        </p>
      ) : (
        <p>{t('dashboard:profile.done')}</p>
      )}
    </Card>
  )
}
