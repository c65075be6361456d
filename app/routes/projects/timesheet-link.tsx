import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { buttonClass } from '~/components/ui/button'

/** The contract pages' way to the timesheet of an hourly contract (decision 324). */
export function TimesheetLink({ projectId }: { projectId: number }) {
  const { t } = useTranslation('timesheets')
  return (
    <Link to={`/projects/timesheets/${projectId}`} className={buttonClass()} data-testid="timesheet-link">
      {t('link')}
    </Link>
  )
}
