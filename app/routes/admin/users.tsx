import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/users'
import { adminList } from '~/lib/admin-list.server'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Pagination } from '~/components/ui/pagination'
import { Toolbar } from '~/components/ui/toolbar'
import { adminUsersContract as c } from '#server/modules/admin-users/contract.ts'
import { adminUserLimits, roleIds, userStatuses } from '#server/modules/admin-users/limits.ts'
import { userSearchQuery } from '#server/modules/admin-users/rules.ts'
import { RoleNames, UserStatusChip } from './user-ui'

// /admin/users (SuperAdmin only): accounts found by words of their name or email, role and status.
// A GET form, so the search is in the address and works without JavaScript; a filter the API
// would refuse (a role that does not exist, page 0) is read as "any" rather than an error page.
export async function loader({ context, url }: Route.LoaderArgs) {
  const raw = Object.fromEntries(
    ['q', 'role', 'status', 'page'].map((k) => [k, url.searchParams.get(k) || undefined]),
  )
  const parsed = userSearchQuery.safeParse(raw)
  const query = parsed.success
    ? parsed.data
    : userSearchQuery.parse({
        q: typeof raw.q === 'string' ? raw.q.slice(0, adminUserLimits.query) : undefined,
      })
  const list = await adminList(
    context,
    url,
    'adminUsers:list.title',
    (api) => api.call(c.search, { query }),
    (words, result) => {
      for (const u of result.data) for (const at of [u.createdAt, u.lastActiveAt]) if (at) words.date(at)
    },
  )
  return { ...list, query }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function AdminUsers({ loaderData: { result, query, url } }: Route.ComponentProps) {
  const { t } = useTranslation('adminUsers')
  const words = useWords()
  return (
    <main id="main" className="container page">
      <h1>{t('list.title')}</h1>
      <p className="lead">{t('list.lead')}</p>
      <Form method="get" className="ui-card" role="search" aria-label={t('list.search')}>
        <Toolbar label={t('list.filters')}>
          <div className="field">
            <label htmlFor="f-q">{t('list.words')}</label>
            <input
              id="f-q"
              name="q"
              type="search"
              defaultValue={query.q ?? ''}
              maxLength={adminUserLimits.query}
            />
          </div>
          <FilterSelect
            name="role"
            label={t('list.role')}
            value={query.role ? String(query.role) : ''}
            any={t('list.any')}
            options={roleIds.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
          />
          <FilterSelect
            name="status"
            label={t('list.status')}
            value={query.status ?? ''}
            any={t('list.any')}
            options={userStatuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          />
          <Button>{t('list.apply')}</Button>
        </Toolbar>
      </Form>
      <p className="muted" role="status">
        {t('list.found', { count: result.total })}
      </p>
      {result.data.length ? (
        <DataTable
          caption={t('list.caption')}
          captionHidden
          columns={[
            { label: t('list.name') },
            { label: t('list.email') },
            { label: t('list.role') },
            { label: t('list.status') },
            { label: t('list.joined') },
            { label: t('list.lastActive') },
          ]}
          rows={result.data.map((u) => ({
            key: u.id,
            testId: 'user-row',
            cells: [
              <Link key="n" to={`/admin/users/${u.id}`}>
                {u.name}
              </Link>,
              u.email,
              <RoleNames key="r" roles={u.roles} />,
              <UserStatusChip key="s" status={u.status} />,
              words.date(u.createdAt),
              u.lastActiveAt ? words.date(u.lastActiveAt) : t('user.never'),
            ],
          }))}
        />
      ) : (
        <EmptyState title={t('list.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
