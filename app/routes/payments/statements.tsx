import { data, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/statements'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { formatDateTime, formatMoney } from '~/lib/format'
import { Button, buttonClass } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { TextField } from '~/components/ui/field'
import { invoicesContract as c } from '#server/modules/payments/invoices-contract.ts'
import { describeMovement, movementDetail } from './statement-lines'
import { readFilter } from './statement-filter.server'

// /statements (login required, issue 17 item 7): every movement of the signed-in user's money,
// oldest first, with the balance after each (per currency), between two optional days; 50 a page;
// the same dates download as CSV (/statements.csv). The filter is a plain GET form, so it works
// without JavaScript; a bad date is named on its field (decision 192).
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const title = getInstance(context).t('invoices:statements.title')
  const read = readFilter(url)
  if (!read.ok)
    return data(
      {
        title,
        statement: null,
        reply: { initialValue: read.raw, error: read.error },
        csv: null,
        url: url.pathname + url.search,
      },
      { status: 400 },
    )
  try {
    const statement = await apiFor(context).call(c.statement, { query: read.filter })
    const csv = new URLSearchParams(
      Object.entries({ from: read.filter.from ?? '', to: read.filter.to ?? '' }).filter(([, v]) => v),
    )
    return {
      title,
      statement,
      reply: { initialValue: read.raw, error: null },
      csv: `/statements.csv${csv.size ? `?${csv}` : ''}`,
      url: url.pathname + url.search,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function Statements({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('invoices')
  const { statement, reply, csv, url } = loaderData
  const money = (minor: number, currency: string) => formatMoney(minor, currency, i18n.language)
  return (
    <main id="main" className="container page">
      <h1>{t('statements.title')}</h1>
      <p className="lead">{t('statements.lead')}</p>
      <Toolbar label={t('statements.filter')}>
        <Form method="get" aria-label={t('statements.filter')}>
          <TextField name="from" type="date" label={t('statements.from')} ns="invoices" reply={reply} />
          <TextField name="to" type="date" label={t('statements.to')} ns="invoices" reply={reply} />
          <Button variant="primary">{t('statements.show')}</Button>
        </Form>
        {csv ? (
          <a className={buttonClass('secondary')} href={csv} download>
            {t('statements.csv')}
          </a>
        ) : null}
      </Toolbar>
      {statement ? (
        statement.data.length ? (
          <DataTable
            caption={t('statements.caption')}
            captionHidden
            columns={[
              { label: t('statements.date') },
              { label: t('statements.description') },
              { label: t('statements.amount'), numeric: true },
              { label: t('statements.balance'), numeric: true },
            ]}
            rows={statement.data.map((m) => {
              const { what, where } = describeMovement(m, t)
              const detail = movementDetail(m, t, (minor) => money(minor, m.currency))
              return {
                key: m.id,
                testId: 'movement',
                cells: [
                  <time key="d" dateTime={m.at}>
                    {formatDateTime(m.at, i18n.language)}
                  </time>,
                  <span key="w">
                    {what}
                    {[where, detail].filter(Boolean).map((line) => (
                      <span key={line}>
                        <br />
                        <span className="muted">{line}</span>
                      </span>
                    ))}
                  </span>,
                  (m.amountMinor > 0 ? '+' : '') + money(m.amountMinor, m.currency),
                  money(m.balanceMinor, m.currency),
                ],
              }
            })}
          />
        ) : (
          <EmptyState title={t('statements.empty')}>{t('statements.emptyText')}</EmptyState>
        )
      ) : null}
      {statement ? (
        <Pagination
          url={url}
          page={statement.page}
          pageSize={statement.pageSize}
          total={statement.total ?? 0}
        />
      ) : null}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
