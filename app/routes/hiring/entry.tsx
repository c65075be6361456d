import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'

// The way into hiring with Workneer's help from Find Freelancers (decision 338): a plain link.
export function HiringHelpEntry() {
  const { t } = useTranslation('shortlist')
  return (
    <p data-testid="hiring-entry">
      {t('hiring.entry')} <Link to="/hiring/new">{t('hiring.title')}</Link>
    </p>
  )
}
