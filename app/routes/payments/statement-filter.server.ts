import { z } from 'zod'
import { statementQuery } from '#server/modules/payments/invoices-contract.ts'

// The statement page's and CSV's filter, read from the URL with the API's own schema (so the page
// names a bad field before asking). On the server only: the browser's code has no zod (issue 38).
const messageKeys: Record<string, string> = {
  'must be a date (YYYY-MM-DD)': 'errors.date',
  'is not a real date': 'errors.date',
  'must not be before the start date': 'errors.order',
}

/** The filter of a statement URL (`from`, `to`, `page`), or the fields it got wrong as keys of the invoices namespace. */
export function readFilter(url: URL) {
  const raw = {
    from: url.searchParams.get('from') ?? undefined,
    to: url.searchParams.get('to') ?? undefined,
    page: url.searchParams.get('page') ?? undefined,
  }
  const parsed = statementQuery.safeParse(raw)
  if (parsed.success) return { ok: true as const, filter: parsed.data, raw }
  const error: Record<string, string[]> = {}
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'from')
    error[field] ??= [messageKeys[issue.message] ?? 'errors.invalid']
  }
  return { ok: false as const, error, raw }
}
export type StatementFilter = z.output<typeof statementQuery>
