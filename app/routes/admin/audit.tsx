import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import type { Route } from './+types/audit'
import { adminList } from '~/lib/admin-list.server'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { complaintsContract as c, auditQuery } from '#server/modules/complaints/contract.ts'
import { useAuditCells, wordAudit } from './audit-ui'

// /admin/audit (SuperAdmin only; issue 18 item 5, decision 238): every admin action across the
// admin area, newest first, filtered by actor, object type, action and days. A GET form (works
// without JavaScript); filters the API refuses (a day that does not exist, "to" before "from") are
// named in a notice and the list is shown unfiltered by them.
const FILTERS = ['actorId', 'objectType', 'action', 'from', 'to'] as const

export async function loader({ context, url }: Route.LoaderArgs) {
  const raw = Object.fromEntries([...FILTERS, 'page'].map((k) => [k, url.searchParams.get(k) || undefined]))
  const parsed = auditQuery.safeParse(raw)
  const invalid = parsed.success ? [] : [...new Set(parsed.error.issues.map((i) => String(i.path[0])))]
  // Without the fields it refused the query is valid (the from/to check names `to`, which goes).
  const query = parsed.success
    ? parsed.data
    : auditQuery.parse(Object.fromEntries(Object.entries(raw).filter(([k]) => !invalid.includes(k))))
  const list = await adminList(
    context,
    url,
    'adminUsers:audit.title',
    (api) => api.call(c.audit, { query }),
    (words, result) => wordAudit(words, result.data),
  )
  return { ...list, filters: raw, invalid }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type AuditData = Route.ComponentProps['loaderData']

export default function AdminAudit({ loaderData: { result, filters, invalid, url } }: Route.ComponentProps) {
  const { t } = useTranslation('adminUsers')
  return (
    <main id="main" className="container page">
      <h1>{t('audit.title')}</h1>
      <p className="lead">{t('audit.lead')}</p>
      <AuditFilters facets={result.facets} filters={filters} invalid={invalid} />
      {invalid.length ? (
        <Notice kind="error">
          {t('audit.invalid', {
            fields: invalid
              .map((f) => t(`audit.${f === 'actorId' ? 'actor' : f}`, { defaultValue: f }))
              .join(', '),
          })}
        </Notice>
      ) : null}
      <p className="muted" role="status">
        {t('audit.found', { count: result.total })}
      </p>
      {result.data.length ? <AuditTable entries={result.data} /> : <EmptyState title={t('audit.empty')} />}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

/** The GET form of filters: actor, object type, action and days. */
function AuditFilters({
  facets,
  filters,
  invalid,
}: {
  facets: AuditData['result']['facets']
  filters: AuditData['filters']
  invalid: string[]
}) {
  const { t } = useTranslation('adminUsers')
  const value = (k: string) => (typeof filters[k] === 'string' ? filters[k] : '')
  const dateField = (name: 'from' | 'to') => (
    <div className="field">
      <label htmlFor={`f-${name}`}>{t(`audit.${name}`)}</label>
      <input
        id={`f-${name}`}
        name={name}
        type="date"
        defaultValue={value(name)}
        aria-invalid={invalid.includes(name) ? true : undefined}
      />
    </div>
  )
  return (
    <Form method="get" className="ui-card">
      <Toolbar label={t('list.filters')}>
        <FilterSelect
          name="actorId"
          label={t('audit.actor')}
          value={value('actorId')}
          any={t('list.any')}
          options={facets.actors.map((a) => ({ value: a.id, label: a.name }))}
        />
        <FilterSelect
          name="objectType"
          label={t('audit.objectType')}
          value={value('objectType')}
          any={t('list.any')}
          options={facets.objectTypes.map((o) => ({
            value: o,
            label: t(`objects.${o}`, { defaultValue: o }),
          }))}
        />
        <FilterSelect
          name="action"
          label={t('audit.action')}
          value={value('action')}
          any={t('list.any')}
          options={facets.actions.map((a) => ({
            value: a,
            label: t(`auditActions.${a}`, { defaultValue: a }),
          }))}
        />
        {dateField('from')}
        {dateField('to')}
        <Button>{t('list.apply')}</Button>
      </Toolbar>
    </Form>
  )
}

function AuditTable({ entries }: { entries: AuditData['result']['data'] }) {
  const { t } = useTranslation('adminUsers')
  const words = useWords()
  const cells = useAuditCells()
  return (
    <DataTable
      caption={t('audit.caption')}
      captionHidden
      columns={[
        { label: t('audit.when') },
        { label: t('audit.who') },
        { label: t('audit.what') },
        { label: t('audit.change') },
        { label: t('audit.why') },
      ]}
      rows={entries.map((a) => {
        const c = cells(a)
        return {
          key: a.id,
          testId: 'audit-row',
          cells: [
            <time key="w" dateTime={a.at}>
              {words.date(a.at, 'dateTime')}
            </time>,
            a.actor.name,
            c.what,
            c.move,
            c.why,
          ],
        }
      })}
    />
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
