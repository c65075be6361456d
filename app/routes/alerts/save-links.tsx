import { useTranslation } from '~/lib/translations'
import { ButtonGroup, ButtonLink } from '~/components/ui/button'

// Above Find Project (a freelancer's) and Find Freelancers (a client's): save the search on screen
// as a job alert, or see the saved ones. Plain links, so they work without JavaScript.
export function SaveSearchLinks({ kind, url }: { kind: 'project' | 'freelancer'; url: string }) {
  const { t } = useTranslation('alerts')
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '')
  query.delete('page')
  query.delete('sort')
  if (kind === 'freelancer') query.set('kind', 'freelancer')
  return (
    <ButtonGroup>
      <ButtonLink to={`/alerts/new?${query}`}>{t('saveThisSearch')}</ButtonLink>
      <ButtonLink to="/alerts">{t('mySavedSearches')}</ButtonLink>
    </ButtonGroup>
  )
}
