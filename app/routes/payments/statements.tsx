import { data, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/statements'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { useWords, wordsFor, type Wording } from '~/lib/words'
import { Button, buttonClass } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { TextField } from '~/components/ui/field'
import { invoicesContract as c, type Movement } from '#server/modules/payments/invoices-contract.ts'
import type { TFunction } from '~/lib/translator'
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
        words: {},
      },
      { status: 400 },
    )
  try {
    const statement = await apiFor(context).call(c.statement, { query: read.filter })
    const words = wordsFor(getLocale(context))
    for (const m of statement.data) movementTexts(words, m, getInstance(context).t)
    const csv = new URLSearchParams(
      Object.entries({ from: read.filter.from ?? '', to: read.filter.to ?? '' }).filter(([, v]) => v),
    )
    return {
      title,
      statement,
      reply: { initialValue: read.raw, error: null },
      csv: `/statements.csv${csv.size ? `?${csv}` : ''}`,
      url: url.pathname + url.search,
      words: words.words,
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

/** A movement's date, amount, balance and detail line in the page's words (the loader words the same). */
function movementTexts(words: Wording, m: Movement, t: TFunction) {
  const money = (minor: number) => words.money(minor, m.currency)
  return {
    at: words.date(m.at, 'dateTime'),
    amount: (m.amountMinor > 0 ? '+' : '') + money(m.amountMinor),
    balance: money(m.balanceMinor),
    detail: movementDetail(m, t, money),
  }
}

export default function Statements({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('invoices')
  const { statement, reply, csv, url } = loaderData
  const words = useWords()
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
              const { at, amount, balance, detail } = movementTexts(words, m, t)
              return {
                key: m.id,
                testId: 'movement',
                cells: [
                  <time key="d" dateTime={m.at}>
                    {at}
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
                  amount,
                  balance,
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
