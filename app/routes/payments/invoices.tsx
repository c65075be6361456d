import type { Route } from './+types/invoices'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { isoDate } from '~/lib/format'
import { useWords, wordsFor, type Wording } from '~/lib/words'
import { buttonClass } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { Pagination } from '~/components/ui/pagination'
import { invoicesContract as c } from '#server/modules/payments/invoices-contract.ts'

// /invoices (login required, issue 17 item 7): the invoices the signed-in user issued (the
// freelancer's, for their work) or received (the client's for the work and the platform's fees),
// newest first, 20 a page; each downloads as a PDF in the reader's language (decisions 190, 191).
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const page = Math.max(1, Math.min(10_000, Math.trunc(Number(url.searchParams.get('page'))) || 1))
  try {
    const list = await apiFor(context).call(c.invoices, { query: { page } })
    const words = wordsFor(getLocale(context))
    for (const v of list.data) invoiceTexts(words, v)
    return {
      list,
      words: words.words,
      url: url.pathname + url.search,
      title: getInstance(context).t('invoices:invoices.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Invoice = Route.ComponentProps['loaderData']['list']['data'][number]
/** An invoice's date and amount in the page's words (the loader words the same). */
const invoiceTexts = (words: Wording, v: Pick<Invoice, 'issuedAt' | 'amountMinor' | 'currency'>) => ({
  issued: words.date(v.issuedAt),
  amount: words.money(v.amountMinor, v.currency),
})

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('invoices')
  const { list, url } = loaderData
  const words = useWords()
  return (
    <main id="main" className="container page">
      <h1>{t('invoices.title')}</h1>
      <p className="lead">{t('invoices.lead')}</p>
      {/* Where the details an invoice carries are entered (decision 311). */}
      <p>
        <Link to="/profile/account-settings#invoice-details">{t('invoices.details')}</Link>
      </p>
      {list.data.length ? (
        <DataTable
          caption={t('invoices.caption')}
          captionHidden
          columns={[
            { label: t('invoices.number') },
            { label: t('invoices.date') },
            { label: t('invoices.for') },
            { label: t('invoices.from') },
            { label: t('invoices.to') },
            { label: t('invoices.amount'), numeric: true },
            { label: t('invoices.file') },
          ]}
          rows={list.data
            .map((v) => ({ v, ...invoiceTexts(words, v) }))
            .map(({ v, issued, amount }) => ({
              key: v.id,
              testId: 'invoice',
              cells: [
                <strong key="n">{v.number}</strong>,
                <time key="d" dateTime={isoDate(v.issuedAt)}>
                  {issued}
                </time>,
                <span key="f">
                  {t(`kind.${v.kind}`)}
                  <br />
                  <span className="muted">
                    {v.projectTitle} · {v.installmentTitle}
                  </span>
                </span>,
                v.issuerName,
                v.recipientName,
                amount,
                <a
                  key="p"
                  className={buttonClass('secondary')}
                  href={`/invoices/${v.id}/pdf`}
                  download
                  aria-label={t('invoices.download', { number: v.number })}
                >
                  PDF
                </a>,
              ],
            }))}
        />
      ) : (
        <EmptyState title={t('invoices.empty')}>
          {list.page > 1 ? t('invoices.emptyPage') : t('invoices.emptyText')}
        </EmptyState>
      )}
      <Pagination url={url} page={list.page} pageSize={list.pageSize} total={list.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
