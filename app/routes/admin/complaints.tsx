import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/complaints'
import { adminList, oneOf } from '~/lib/admin-list.server'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip, StatusChip } from '~/components/ui/status-chip'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { complaintsContract as c } from '#server/modules/complaints/contract.ts'
import { complaintStates } from '#server/modules/complaints/machine.ts'
import { subjectKinds } from '#server/modules/complaints/limits.ts'
import { SubjectText } from '../ticket-support/ui'
import { listPage } from '~/lib/list-page'

// /admin/complaints (SuperAdmin only; anyone else is sent to /auth/unauthorized): the ticket queue,
// longest waiting first, filtered by state, by what the tickets are about and to the disputes whose
// money is held, soonest deadline first (decision 313); a GET form, so the filters are in the
// address and work without JavaScript.

export async function loader({ context, url }: Route.LoaderArgs) {
  const state = oneOf(complaintStates, url.searchParams.get('state'))
  const kind = oneOf(subjectKinds, url.searchParams.get('kind'))
  const dispute = oneOf(['held'] as const, url.searchParams.get('dispute'))
  const page = listPage(url)
  const list = await adminList(
    context,
    url,
    'complaints:admin.title',
    (api) => api.call(c.queue, { query: { state, kind, dispute, page } }),
    (words, result) => {
      for (const ticket of result.data) {
        words.date(ticket.updatedAt)
        if (ticket.held?.decideBy) words.date(ticket.held.decideBy)
        if (ticket.held) words.money(ticket.held.amountMinor, ticket.held.currency)
      }
    },
  )
  return { ...list, state, kind, dispute }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function ComplaintQueue({
  loaderData: { result, state, kind, dispute, url },
}: Route.ComponentProps) {
  const { t } = useTranslation(['complaints', 'ui', 'disputes'])
  const words = useWords()
  return (
    <main id="main" className="container page">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.lead')}</p>
      <Form method="get" className="ui-card">
        <Toolbar label={t('admin.filters')}>
          <FilterSelect
            name="state"
            label={t('admin.state')}
            value={state ?? ''}
            any={t('admin.any')}
            options={complaintStates.map((s) => ({ value: s, label: t(`ui:status.complaint.${s}`) }))}
          />
          <FilterSelect
            name="kind"
            label={t('admin.kind')}
            value={kind ?? ''}
            any={t('admin.any')}
            options={subjectKinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          />
          <FilterSelect
            name="dispute"
            label={t('disputes:queue.filter')}
            value={dispute ?? ''}
            any={t('admin.any')}
            options={[{ value: 'held', label: t('disputes:queue.held') }]}
          />
          <Button>{t('admin.apply')}</Button>
        </Toolbar>
      </Form>
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('admin.tickets')}>
          {result.data.map((ticket) => (
            <Card
              as="li"
              level={2}
              key={ticket.id}
              data-testid="queue-ticket"
              titleId={`ticket-${ticket.id}`}
              title={<Link to={`/admin/complaints/${ticket.id}`}>{`#${ticket.id}: ${ticket.title}`}</Link>}
              status={<StatusChip machine="complaint" state={ticket.state} />}
              meta={<SubjectText subject={ticket.subject} />}
            >
              {ticket.held ? <HeldLine held={ticket.held} /> : null}
              <p className="muted small">
                {`${t('admin.author')}: ${ticket.author.name} · ${t('ticket.assignee')}: ${ticket.assignee?.name ?? t('admin.unassigned')} · ${t('list.updated', { date: words.date(ticket.updatedAt) })}`}
              </p>
            </Card>
          ))}
        </ul>
      ) : (
        <EmptyState title={t('admin.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

/** A dispute's money on hold and the date support is to decide by (decision 313). */
function HeldLine({
  held,
}: {
  held: NonNullable<Route.ComponentProps['loaderData']['result']['data'][number]['held']>
}) {
  const { t } = useTranslation(['disputes'])
  const words = useWords()
  return (
    <p data-testid="queue-held">
      {t('queue.line', {
        amount: words.money(held.amountMinor, held.currency),
        date: held.decideBy ? words.date(held.decideBy) : '—',
      })}{' '}
      {held.overdue ? <Chip tone="danger">{t('queue.overdue')}</Chip> : null}
    </p>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
