import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { titled } from '~/lib/meta'
import { useWords, wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { Toolbar } from '~/components/ui/toolbar'
import { complaintsContract as c } from '#server/modules/complaints/contract.ts'
import { SubjectText } from './ui'
import { listPage } from '~/lib/list-page'

// /ticketSupport, "View All Complaints" (docs/product.md §2): the signed-in user's own tickets, newest first,
// each with its state; a ticket opens its conversation with support.
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const page = listPage(url)
  try {
    const result = await apiFor(context).call(c.mine, { query: { page } })
    const words = wordsFor(getLocale(context))
    for (const ticket of result.data) words.date(ticket.updatedAt)
    return {
      result,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t('complaints:list.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Complaints({ loaderData: { result, url } }: Route.ComponentProps) {
  const { t } = useTranslation('complaints')
  const words = useWords()
  return (
    <main id="main" className="container page">
      <h1>{t('list.title')}</h1>
      <p className="lead">{t('list.lead')}</p>
      <Toolbar label={t('list.label')}>
        <span />
        <ButtonLink variant="primary" to="/ticketSupport/addComplaints">
          {t('list.add')}
        </ButtonLink>
      </Toolbar>
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('list.label')}>
          {result.data.map((ticket) => (
            <Card
              as="li"
              level={2}
              key={ticket.id}
              data-testid="ticket"
              titleId={`ticket-${ticket.id}`}
              title={
                <Link
                  to={`/ticketSupport/${ticket.id}`}
                >{`${t('list.ticket', { id: ticket.id })}: ${ticket.title}`}</Link>
              }
              status={<StatusChip machine="complaint" state={ticket.state} />}
              meta={<SubjectText subject={ticket.subject} />}
            >
              <p className="muted small">
                {ticket.source === 'contact' ? `${t('list.fromContact')} · ` : ''}
                {t('list.updated', { date: words.date(ticket.updatedAt) })}
              </p>
            </Card>
          ))}
        </ul>
      ) : (
        <EmptyState
          title={t('list.empty')}
          action={<ButtonLink to="/ticketSupport/addComplaints">{t('list.add')}</ButtonLink>}
        >
          {t('list.emptyHint')}
        </EmptyState>
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
