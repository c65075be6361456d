import { useTranslation } from '~/lib/translations'
import { Form, useLoaderData } from 'react-router'
import type { Route } from './+types/dashboard'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { dashboardWords } from './dashboard-words.server'
import { ErrorPage } from '~/components/error-page'
import { BarChart } from '~/components/ui/bar-chart'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { FilterSelect } from '~/components/ui/filter-select'
import { Toolbar } from '~/components/ui/toolbar'
import { adminMoneyContract as c } from '#server/modules/admin-money/contract.ts'
import { dashboardPeriods } from '#server/modules/admin-money/periods.ts'

// /admin (SuperAdmin only): the administration's overview (decision 251). Counts now and per week
// of the chosen period (a GET filter, so it works without JavaScript), drawn as server-side SVG
// charts whose figures are tables a screen reader reads.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const asked = Number(url.searchParams.get('weeks'))
  const weeks = (dashboardPeriods as readonly number[]).includes(asked) ? asked : 12
  try {
    const figures = await apiFor(context).call(c.dashboard, { query: { weeks } })
    return {
      figures,
      words: dashboardWords(figures, getLocale(context)),
      title: getInstance(context).t('adminMoney:dashboard.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Figures = Route.ComponentProps['loaderData']['figures']

export default function AdminDashboard({ loaderData: { figures } }: Route.ComponentProps) {
  const { t } = useTranslation(['adminMoney', 'ui'])
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
      <Totals figures={figures} />
      <PeopleSection figures={figures} />
      <WorkSection figures={figures} />
      <MoneySection figures={figures} />
    </main>
  )
}

/** Counts and money in the page's language (`dashboardWords`), and what every weekly chart shares: the weeks and their labels. */
function useWeekly() {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const words = useWords()
  const { figures } = useLoaderData<typeof loader>()
  const count = words.number
  const chart = {
    categoryLabel: t('dashboard.week'),
    categories: figures.weekStarts.map((w) => words.date(w, 'dayMonth')),
    figuresLabel: t('dashboard.figures'),
    format: count,
  }
  return { count, money: words.money, chart }
}

/** A chart of counts by a key (a role, a state). */
function CountChart({
  caption,
  head,
  items,
  label,
  testId,
}: {
  caption: string
  head: string
  items: Array<{ key: string; count: number }>
  label: (key: string) => string
  testId: string
}) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const { count } = useWeekly()
  return (
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
}

function Totals({ figures }: { figures: Figures }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const { count, money } = useWeekly()
  return (
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
            <span data-testid={`held-${m.currency}`}>{money(m.heldMinor, m.currency)}</span>,
          ]),
        ]}
      />
    </Card>
  )
}

function PeopleSection({ figures }: { figures: Figures }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const { chart } = useWeekly()
  return (
    <section className="ui-section" aria-labelledby="people">
      <h2 id="people">{t('dashboard.users')}</h2>
      <div className="ui-chart-grid-2">
        <CountChart
          caption={t('dashboard.usersByRole')}
          head={t('dashboard.role')}
          items={figures.users.by}
          label={(k) => t(`roles.${k}`, { defaultValue: k })}
          testId="chart-users-by-role"
        />
        <BarChart
          testId="chart-new-users"
          caption={t('dashboard.newUsers')}
          series={[{ name: t('dashboard.newUsersSeries'), values: figures.users.newPerWeek }]}
          {...chart}
        />
      </div>
    </section>
  )
}

function WorkSection({ figures }: { figures: Figures }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const { chart } = useWeekly()
  return (
    <section className="ui-section" aria-labelledby="work">
      <h2 id="work">{t('dashboard.work')}</h2>
      <div className="ui-chart-grid-2">
        <CountChart
          caption={t('dashboard.projectsByState')}
          head={t('dashboard.state')}
          items={figures.projects.by}
          label={(k) => t(`ui:status.project.${k}`, { defaultValue: k })}
          testId="chart-projects-by-state"
        />
        <CountChart
          caption={t('dashboard.contractsByState')}
          head={t('dashboard.state')}
          items={figures.contracts.by}
          label={(k) => t(`ui:status.contract.${k}`, { defaultValue: k })}
          testId="chart-contracts-by-state"
        />
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
  )
}

function MoneySection({ figures }: { figures: Figures }) {
  const { t } = useTranslation(['adminMoney', 'ui'])
  const { chart, money } = useWeekly()
  return (
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
          format={(v) => money(v, m.currency)}
        />
      ))}
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
