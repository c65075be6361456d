import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import type { Route } from './+types/hiring'
import { adminList, oneOf } from '~/lib/admin-list.server'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { hiringContract as c } from '#server/modules/hiring/contract.ts'
import { hiringStates } from '#server/modules/hiring/states.ts'
import { RequestCard, wordRequest } from '../hiring/ui'
import { listPage } from '~/lib/list-page'

// /admin/hiring (SuperAdmin only): the clients' requests for help hiring, open ones first and the
// longest waiting first, filtered by state with a GET form (decision 338).
export async function loader({ context, url }: Route.LoaderArgs) {
  const state = oneOf(hiringStates, url.searchParams.get('state'))
  const page = listPage(url)
  const list = await adminList(
    context,
    url,
    'shortlist:hiring.admin.title',
    (api) => api.call(c.queue, { query: { state, page } }),
    (words, result) => {
      for (const r of result.data) wordRequest(words, r)
    },
  )
  return { ...list, state }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function HiringQueue({ loaderData: { result, state, url } }: Route.ComponentProps) {
  const { t } = useTranslation('shortlist')
  return (
    <main id="main" className="container page">
      <h1>{t('hiring.admin.title')}</h1>
      <p className="lead">{t('hiring.admin.lead')}</p>
      <Form method="get" className="ui-card">
        <Toolbar label={t('hiring.admin.state')}>
          <FilterSelect
            name="state"
            label={t('hiring.admin.state')}
            value={state ?? ''}
            any={t('hiring.admin.any')}
            options={hiringStates.map((s) => ({ value: s, label: t(`hiring.state.${s}`) }))}
          />
          <Button>{t('hiring.admin.apply')}</Button>
        </Toolbar>
      </Form>
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('hiring.admin.title')}>
          {result.data.map((r) => (
            <RequestCard key={r.id} request={r} to={`/admin/hiring/${r.id}`}>
              <p className="muted small">
                {`${t('hiring.admin.client')}: ${r.client.name} · ${t('hiring.admin.assignee')}: ${r.assignee?.name ?? t('hiring.admin.unassigned')}`}
              </p>
            </RequestCard>
          ))}
        </ul>
      ) : (
        <EmptyState title={t('hiring.admin.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
