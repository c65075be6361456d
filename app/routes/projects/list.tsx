import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { getUser, requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useWords, wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract } from '#server/modules/projects/contract.ts'
import {
  budgetTypes,
  experienceLevels,
  postedWithinDays,
  projectSorts,
} from '#server/modules/projects/rules.ts'
import { useShellData } from '~/components/shell/use-shell-data'
import { wishFromList } from './actions.server'
import { ProjectCard, wordProjectCards } from './ui'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Pagination } from '~/components/ui/pagination'
import { titled } from '~/lib/meta'
import { Role } from '#server/modules/identity/permissions.ts'
import { SaveSearchLinks } from '../alerts/save-links'
import { publicPageHeaders } from '~/lib/public-page'

// /projects and /projects/getprojects (Find Project): a GET form, so every filter lives in the URL
// and works without JavaScript. Budgets in the URL are in major units (budgetMin=1000).
// Find Project answers from the newest 1,000 matches (server/modules/projects/search.ts,
// SEARCH_WINDOW): a total of 1,000 reads "1,000 or more" and pages stop there.
const SEARCH_WINDOW = 1000
const PAGE_SIZE = 20
const keys = [
  'search',
  'categoryId',
  'budgetType',
  'budgetMin',
  'budgetMax',
  'experienceLevel',
  'country',
  'postedWithin',
  'sort',
  'remote',
  'page',
] as const

export const headers = publicPageHeaders

export async function loader({ context, url }: Route.LoaderArgs) {
  const p = url.searchParams
  const get = (k: string) => p.get(k)?.trim() || undefined
  const num = (k: string) => (get(k) && /^\d+$/.test(get(k)!) ? Number(get(k)) : undefined)
  const oneOf = <T extends readonly (string | number)[]>(k: string, list: T) =>
    list.map(String).includes(get(k) ?? '') ? get(k) : undefined
  const search = get('search')
  const query = {
    search: search && search.toLowerCase() !== 'all' ? search.slice(0, 100) : undefined,
    categoryId: num('categoryId'),
    budgetType: oneOf('budgetType', budgetTypes) as 'fixed' | 'hourly' | undefined,
    budgetMin: num('budgetMin') !== undefined ? num('budgetMin')! * 100 : undefined,
    budgetMax: num('budgetMax') !== undefined ? num('budgetMax')! * 100 : undefined,
    experienceLevel: oneOf('experienceLevel', experienceLevels) as 'entry' | undefined,
    country:
      get('country') && /^[a-z]{2}$/i.test(get('country')!) ? get('country')!.toUpperCase() : undefined,
    postedWithin:
      num('postedWithin') && (postedWithinDays as readonly number[]).includes(num('postedWithin')!)
        ? num('postedWithin')
        : undefined,
    sort: oneOf('sort', projectSorts) as 'newest' | undefined,
    remote:
      get('remote') === 'true'
        ? ('true' as const)
        : get('remote') === 'false'
          ? ('false' as const)
          : undefined,
    page: Math.min(SEARCH_WINDOW / PAGE_SIZE, num('page') ?? 1) || 1,
    pageSize: PAGE_SIZE,
  }
  try {
    // What Find Project lists is the same for everyone in a language, signed in or not.
    const result = await apiFor(context, { token: null }).call(projectsContract.search, { query })
    const user = getUser(context)
    // The signed-in visitor's saved projects among this page's, for the Save buttons.
    const ids = result.data.filter((r) => r.client.id !== user?.id).map((r) => r.id)
    const saved =
      user && ids.length
        ? (await apiFor(context).call(projectsContract.savedAmong, { query: { projectIds: ids } })).data
        : []
    const words = wordsFor(getLocale(context))
    words.number(Math.min(result.total, SEARCH_WINDOW))
    wordProjectCards(words, result.data)
    return {
      result: result,
      words: words.words,
      saved,
      values: Object.fromEntries(keys.map((k) => [k, p.get(k) ?? ''])),
      url: url.pathname + url.search,
      userId: user?.id ?? null,
      // A freelancer may save this search as a job alert (decision 328).
      canSave: !!user?.roles.includes(Role.Freelancer),
      title: getInstance(context).t('projects:list.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  return wishFromList(context, await request.formData(), url.pathname + url.search)
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type ListData = Route.ComponentProps['loaderData']

export default function ProjectList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  return (
    <main id="main" className="container page projects-page">
      <h1>{t('list.title')}</h1>
      {loaderData.canSave ? <SaveSearchLinks kind="project" url={loaderData.url} /> : null}
      <div className="ui-with-sidebar">
        <Filters values={loaderData.values} />
        <Results data={loaderData} />
      </div>
    </main>
  )
}

/** The GET form of filters: every filter lives in the URL. */
function Filters({ values }: { values: ListData['values'] }) {
  const { t } = useTranslation('projects')
  // The categories the shell already loaded for its menu (one catalogue read per page, not two).
  const categories = useShellData()?.categories ?? []
  return (
    <Form method="get" className="ui-card ui-filters" role="search" aria-label={t('list.filters')}>
      <h2 className="ui-filters-title">{t('list.filters')}</h2>
      <div className="field">
        <label htmlFor="f-search">{t('list.search')}</label>
        <input
          id="f-search"
          name="search"
          type="search"
          defaultValue={values.search === 'all' ? '' : values.search}
          maxLength={100}
        />
      </div>
      <FilterSelect
        id="f-category"
        name="categoryId"
        label={t('fields.category')}
        value={values.categoryId}
        any={t('list.any')}
        options={categories.map((c) => ({ value: c.id, label: c.name }))}
      />
      <BudgetFilters values={values} />
      <FilterSelect
        id="f-level"
        name="experienceLevel"
        label={t('fields.experienceLevel')}
        value={values.experienceLevel}
        any={t('list.any')}
        options={experienceLevels.map((l) => ({ value: l, label: t(`level.${l}`) }))}
      />
      <div className="field">
        <label htmlFor="f-country">{t('fields.country')}</label>
        <input
          id="f-country"
          name="country"
          maxLength={2}
          size={3}
          defaultValue={values.country}
          placeholder="ES"
        />
      </div>
      <FilterSelect
        id="f-posted"
        name="postedWithin"
        label={t('list.postedWithin')}
        value={values.postedWithin}
        any={t('list.anyTime')}
        options={postedWithinDays.map((d) => ({ value: d, label: t('list.days', { count: d }) }))}
      />
      <FilterSelect
        id="f-sort"
        name="sort"
        label={t('list.sort')}
        value={values.sort}
        any={t('sort.default')}
        options={projectSorts.map((s) => ({ value: s, label: t(`sort.${s}`) }))}
      />
      <ButtonGroup>
        <Button variant="primary">{t('list.apply')}</Button>
        <Link to="/projects/getprojects">{t('list.clear')}</Link>
      </ButtonGroup>
    </Form>
  )
}

/** The budget: its type and the range, in major units. */
function BudgetFilters({ values }: { values: ListData['values'] }) {
  const { t } = useTranslation('projects')
  return (
    <>
      <FilterSelect
        id="f-type"
        name="budgetType"
        label={t('fields.budgetType')}
        value={values.budgetType}
        any={t('list.any')}
        options={budgetTypes.map((b) => ({ value: b, label: t(`budgetType.${b}`) }))}
      />
      <div className="field">
        <label htmlFor="f-min">{t('list.budgetMin')}</label>
        <input
          id="f-min"
          name="budgetMin"
          inputMode="numeric"
          pattern="[0-9]*"
          defaultValue={values.budgetMin}
          size={8}
        />
      </div>
      <div className="field">
        <label htmlFor="f-max">{t('list.budgetMax')}</label>
        <input
          id="f-max"
          name="budgetMax"
          inputMode="numeric"
          pattern="[0-9]*"
          defaultValue={values.budgetMax}
          size={8}
        />
      </div>
    </>
  )
}

/** How many were found, the cards (Save buttons for a signed-in reader), and the pages. */
function Results({ data: { url, userId, saved, result } }: { data: ListData }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const capped = result.total >= SEARCH_WINDOW
  return (
    <section aria-labelledby="results-title">
      <p className="muted" aria-live="polite">
        {capped
          ? t('list.foundAtLeast', { total: words.number(SEARCH_WINDOW) })
          : t('list.found', { count: result.total, formatted: words.number(result.total) })}
      </p>
      <h2 className="visually-hidden" id="results-title">
        {t('list.results')}
      </h2>
      {result.data.length ? (
        result.data.map((p) => (
          <ProjectCard
            key={p.id}
            p={p}
            href={p.client.id === userId ? `/projects/client/details/${p.id}` : `/projects/details/${p.id}`}
            save={userId && p.client.id !== userId ? { saved: saved.includes(p.id), action: url } : undefined}
          />
        ))
      ) : (
        <EmptyState
          title={t('list.empty')}
          action={<ButtonLink to="/projects/getprojects">{t('list.clear')}</ButtonLink>}
        />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
