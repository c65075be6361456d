import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'

// The way into hiring with Workneer's help from Find Freelancers (decision 338): a plain link.
export function HiringHelpEntry() {
  const { t } = useTranslation('hiring')
  return (
    <p data-testid="hiring-entry">
      {t('entry')} <Link to="/hiring/new">{t('title')}</Link>
    </p>
  )
}
