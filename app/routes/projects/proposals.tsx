import { useTranslation } from '~/lib/use-translation'
import { Form, Link } from 'react-router'
import type { Route } from './+types/proposals'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c } from '../../../server/modules/projects/contract'
import { proposalStates } from '../../../server/modules/projects/machines'
import { Money, Pager, Status } from './ui'

// /projects/freelancer/porposals (the spec's spelling): My Proposals, filtered by state in the URL.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'proposals.mine')
  const status = proposalStates.find((s) => s === url.searchParams.get('status'))
  const page = Math.max(1, Number(url.searchParams.get('page')) || 1)
  try {
    const result = await apiFor(context).call(c.myProposals, { query: { status, page, pageSize: 20 } })
    return { result, status: status ?? '', url: url.pathname + url.search, title: getInstance(context).t('projects:proposals.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.title ?? ''} – Workneer` }]
}

export default function MyProposals({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { result, status, url } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('proposals.title')}</h1>
      <Form method="get" className="filters">
        <label htmlFor="status">{t('fields.status')}</label>{' '}
        <select id="status" name="status" defaultValue={status}>
          <option value="">{t('list.any')}</option>
          {proposalStates.map((s) => (
            <option key={s} value={s}>
              {t(`status.${s}`)}
            </option>
          ))}
        </select>{' '}
        <button type="submit" className="button">
          {t('list.apply')}
        </button>
      </Form>
      <h2 className="visually-hidden">{t('list.results')}</h2>
      {result.data.length ? null : <p className="muted">{t('proposals.none')}</p>}
      {result.data.map((p) => (
        <article key={p.id} className="card" data-testid="my-proposal">
          <h3>
            <Link to={p.status === 'accepted' ? `/projects/freelancer/contract/${p.projectId}` : `/projects/details/${p.projectId}`}>{p.projectTitle}</Link>
          </h3>
          <p className="muted">
            <Status value={p.status} /> · <Money minor={p.bidMinor} currency={p.currency} /> · {t('list.days', { count: p.durationDays })}
          </p>
          {p.rejectReason ? <p className="prewrap">{t('proposals.rejectReason', { reason: p.rejectReason })}</p> : null}
        </article>
      ))}
      <Pager url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
