import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import type { Route } from './+types/dashboard'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { formatDate, formatMoney, formatNumber } from '~/lib/format'
import { ErrorPage } from '~/components/error-page'
import { BarChart, Button, Card, DefinitionList, FilterSelect, Toolbar } from '~/components/ui'
import { adminMoneyContract as c, dashboardPeriods } from '../../../server/modules/admin-money/contract'

// /admin (SuperAdmin only): the administration's overview (decision 251). Counts now and per week
// of the chosen period (a GET filter, so it works without JavaScript), drawn as server-side SVG
// charts whose figures are tables a screen reader reads.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const asked = Number(url.searchParams.get('weeks'))
  const weeks = (dashboardPeriods as readonly number[]).includes(asked) ? asked : 12
  try {
    const figures = await apiFor(context).call(c.dashboard, { query: { weeks } })
    return { figures, title: getInstance(context).t('adminMoney:dashboard.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export default function AdminDashboard({ loaderData: { figures } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['adminMoney', 'ui'])
  const lng = i18n.language
  const weeks = figures.weekStarts.map((w) => formatDate(w, lng, { day: 'numeric', month: 'short' }))
  const count = (v: number) => formatNumber(v, lng)
  const chart = {
    categoryLabel: t('dashboard.week'),
    categories: weeks,
    figuresLabel: t('dashboard.figures'),
    format: count,
  }
  const byKey = (
    caption: string,
    head: string,
    items: Array<{ key: string; count: number }>,
    label: (key: string) => string,
    testId: string,
  ) => (
    <BarChart
      testId={testId}
      caption={caption}
      categoryLabel={head}
      figuresLabel={t('dashboard.figures')}
      categories={items.map((i) => label(i.key))}
      series={[{ name: t('dashboard.count'), values: items.map((i) => i.count) }]}
      format={count}
    />
  )
  return (
    <main id="main" className="container page">
      <h1>{t('dashboard.title')}</h1>
      <p className="lead">{t('dashboard.lead')}</p>
      <Form method="get" className="ui-card">
        <Toolbar label={t('dashboard.period')}>
          <FilterSelect
            name="weeks"
            label={t('dashboard.period')}
            value={String(figures.weeks)}
            options={dashboardPeriods.map((w) => ({
              value: w,
              label: t('dashboard.lastWeeks', { count: w }),
            }))}
          />
          <Button>{t('dashboard.show')}</Button>
        </Toolbar>
      </Form>
      <Card as="section" level={2} title={t('dashboard.totals')} titleId="totals">
        <DefinitionList
          items={[
            [t('dashboard.users'), <span data-testid="total-users">{count(figures.users.total)}</span>],
            [
              t('dashboard.projects'),
              <span data-testid="total-projects">{count(figures.projects.total)}</span>,
            ],
            [
              t('dashboard.contracts'),
              <span data-testid="total-contracts">{count(figures.contracts.total)}</span>,
            ],
            ...figures.money.map((m): [string, React.ReactNode] => [
              t('dashboard.heldNow', { currency: m.currency }),
              <span data-testid={`held-${m.currency}`}>{formatMoney(m.heldMinor, m.currency, lng)}</span>,
            ]),
          ]}
        />
      </Card>
      <section className="ui-section" aria-labelledby="people">
        <h2 id="people">{t('dashboard.users')}</h2>
        <div className="ui-chart-grid-2">
          {byKey(
            t('dashboard.usersByRole'),
            t('dashboard.role'),
            figures.users.by,
            (k) => t(`roles.${k}`, { defaultValue: k }),
            'chart-users-by-role',
          )}
          <BarChart
            testId="chart-new-users"
            caption={t('dashboard.newUsers')}
            series={[{ name: t('dashboard.newUsersSeries'), values: figures.users.newPerWeek }]}
            {...chart}
          />
        </div>
      </section>
      <section className="ui-section" aria-labelledby="work">
        <h2 id="work">{t('dashboard.work')}</h2>
        <div className="ui-chart-grid-2">
          {byKey(
            t('dashboard.projectsByState'),
            t('dashboard.state'),
            figures.projects.by,
            (k) => t(`ui:status.project.${k}`, { defaultValue: k }),
            'chart-projects-by-state',
          )}
          {byKey(
            t('dashboard.contractsByState'),
            t('dashboard.state'),
            figures.contracts.by,
            (k) => t(`ui:status.contract.${k}`, { defaultValue: k }),
            'chart-contracts-by-state',
          )}
        </div>
        <BarChart
          testId="chart-new-work"
          caption={t('dashboard.newWork')}
          series={[
            { name: t('dashboard.newProjects'), values: figures.projects.newPerWeek },
            { name: t('dashboard.newContracts'), values: figures.contracts.newPerWeek },
          ]}
          {...chart}
        />
      </section>
      <section className="ui-section" aria-labelledby="money">
        <h2 id="money">{t('dashboard.money')}</h2>
        {figures.money.length ? null : <p className="muted">{t('dashboard.noMoney')}</p>}
        {figures.money.map((m) => (
          <BarChart
            key={m.currency}
            testId={`chart-money-${m.currency}`}
            caption={t('dashboard.moneyCaption', { currency: m.currency })}
            series={[
              { name: t('dashboard.held'), values: m.heldPerWeek },
              { name: t('dashboard.released'), values: m.releasedPerWeek },
            ]}
            {...chart}
            format={(v) => formatMoney(v, m.currency, lng)}
          />
        ))}
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
