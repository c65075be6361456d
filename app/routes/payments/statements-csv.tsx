import type { Route } from './+types/statements-csv'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { invoicesContract as c } from '#server/modules/payments/invoices-contract.ts'
import { csvCell, decimal, describeMovement } from './statement-lines'
import { readFilter } from './statement-filter.server'

// /statements.csv?from&to (login required): the statement as CSV, streamed a thousand movements at
// a time by the API's cursor, so a long statement starts at once and never sits whole in memory.
// A neutral format any spreadsheet or program reads (decision 192): UTF-8 with a byte order mark,
// comma-separated, RFC 4180 quoting, ISO 8601 times in UTC, amounts with a point and the
// currency's decimals; headings and descriptions in the reader's language. A text cell that a
// spreadsheet would run as a formula (= + - @ first) starts with an apostrophe.
const CHUNK = 1000

export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const read = readFilter(url)
  if (!read.ok)
    throw new Response(
      `${Object.keys(read.error).join(', ')}: must be dates (YYYY-MM-DD), the end not before the start`,
      { status: 400 },
    )
  const api = apiFor(context)
  const { t } = getInstance(context)
  const ask = (after: number) =>
    api.call(c.statement, { query: { from: read.filter.from, to: read.filter.to, after, pageSize: CHUNK } })
  // The first chunk is read before answering, so a refusal is still an error status, not a broken file.
  let chunk: Awaited<ReturnType<typeof ask>>
  try {
    chunk = await ask(0)
  } catch (error) {
    throwApiError(error)
  }
  const head = [
    'date',
    'description',
    'project',
    'account',
    'amount',
    'price',
    'fee',
    'withdrawal',
    'currency',
    'balance',
  ]
    .map((k) => csvCell(t(`invoices:csv.${k}`)))
    .join(',')
  const encoder = new TextEncoder()
  let first: typeof chunk | null = chunk
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${head}\r\n`))
    },
    async pull(controller) {
      const page = first ?? (await ask(chunk.next!))
      first = null
      chunk = page
      const lines = page.data.map((m) => {
        const { what, where } = describeMovement(m, t)
        return [
          m.at,
          what,
          where,
          t(`invoices:account.${m.account}`),
          decimal(m.amountMinor, m.currency),
          m.priceMinor == null ? '' : decimal(m.priceMinor, m.currency),
          m.feeMinor == null ? '' : decimal(m.feeMinor, m.currency),
          m.withdrawal ? t(`invoices:withdrawal.${m.withdrawal}`) : '',
          m.currency,
          decimal(m.balanceMinor, m.currency),
        ]
          .map(csvCell)
          .join(',')
      })
      if (lines.length) controller.enqueue(encoder.encode(`${lines.join('\r\n')}\r\n`))
      if (!page.hasNext) controller.close()
    },
  })
  const name = ['statement', read.filter.from, read.filter.to].filter(Boolean).join('-')
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}.csv"`,
      'cache-control': 'private, no-store',
    },
  })
}
