import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/search'
import { apiFor } from '~/lib/api.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { FilterSelect } from '~/components/ui/filter-select'
import { TagInput } from '~/components/ui/tag-input'
import { useWords, wordsFor } from '~/lib/words'
import { FreelancerHit, wordHit } from './hit'
import { profilesContract, searchQuery } from '#server/modules/profiles/contract.ts'
import {
  availabilities,
  currencies,
  experienceLevels,
  parseAmount,
  searchSorts,
} from '#server/modules/profiles/rules.ts'
import stylesheet from '../profile/profile.css?url'
import { titled } from '~/lib/meta'
import { SaveSearchLinks } from '../alerts/save-links'
import { HiringHelpEntry } from '../hiring/entry'
import { readCategoryTree } from '~/lib/catalogue.server'
import { publicPageHeaders } from '~/lib/public-page'
import { favouriteIntent, savedAmong } from './favourites.server'

// Find Freelancers (clients and companies; the route guard sends freelancers to
// /auth/unauthorized). Every filter, the sort and the page live in the URL: the filter form is a
// GET form, so the page works without JavaScript and any result page can be shared.
export const headers = publicPageHeaders

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheet }]

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

const PAGE_SIZE = 20

/** The URL's parameters as the search API's query; values that do not parse are dropped, never an error. */
function queryFromUrl(params: URLSearchParams) {
  const term = params.get('search')?.trim() ?? ''
  const amount = (v: string | null) => (v ? (parseAmount(v) ?? undefined) : undefined)
  const candidate = {
    q: term && term.toLowerCase() !== 'all' ? term.slice(0, 100) : undefined,
    categoryId: params.get('category') || undefined,
    subcategoryId: params.get('subcategory') || undefined,
    skills: params.getAll('skill').filter(Boolean).slice(0, 30),
    country: params.get('country') || undefined,
    minRate: amount(params.get('minRate')),
    maxRate: amount(params.get('maxRate')),
    currency: params.get('currency') || undefined,
    experienceLevel: params.get('experience') || undefined,
    availability: params.get('availability') || undefined,
    language: params.get('language') || undefined,
    minRating: params.get('rating') || undefined,
    verifiedOnly: params.get('verified') === 'on' || undefined,
    sort: params.get('sort') || undefined,
    page: params.get('page') || undefined,
    pageSize: PAGE_SIZE,
  }
  const parsed = searchQuery.safeParse(candidate)
  if (parsed.success) return parsed.data
  // Drop each field the API would refuse, keep the rest.
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])))
  const kept = Object.fromEntries(Object.entries(candidate).filter(([k]) => !bad.has(k)))
  return searchQuery.parse(kept)
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const query = queryFromUrl(url.searchParams)
  const api = apiFor(context)
  const [results, tree, facets] = await Promise.all([
    api.call(profilesContract.search, { query }),
    readCategoryTree(context),
    api.call(profilesContract.searchFacets),
  ])
  const selectedSkills = url.searchParams.getAll('skill')
  const params = Object.fromEntries(
    [...url.searchParams.entries()].filter(([k]) => k !== 'skill' && k !== 'page'),
  )
  // The page stays light (it was ~100 KB of <option>s): countries and languages only where listed
  // freelancers are, and skills only of the chosen category or subcategory (and those already
  // chosen). With JavaScript off a client picks the category, searches, then picks skills.
  const subcategories = tree.data.flatMap((c) => c.subcategories)
  const skillPool = query.subcategoryId
    ? subcategories.filter((s) => s.id === query.subcategoryId)
    : query.categoryId
      ? subcategories.filter((s) => s.categoryId === query.categoryId)
      : []
  const skillNames = new Map(
    subcategories.flatMap((s) => s.skills.map((k) => [String(k.id), k.name] as const)),
  )
  const skillIds = new Set([
    ...skillPool.flatMap((s) => s.skills.map((k) => String(k.id))),
    ...selectedSkills.filter((id) => skillNames.has(id)),
  ])
  // A value from the URL that no listed freelancer has stays offered (named by its code), so the form shows what was asked.
  const offered = (list: Array<{ code: string; name: string }>, chosen: string | undefined) => {
    const options = list.map((x) => ({ value: x.code, label: x.name }))
    return chosen && !list.some((x) => x.code === chosen)
      ? [...options, { value: chosen, label: chosen }]
      : options
  }
  const words = wordsFor(getLocale(context))
  words.number(results.total)
  for (const h of results.data) wordHit(words, h)
  return {
    title: getInstance(context).t('profile:search.title'),
    words: words.words,
    results: results,
    categories: tree.data.map((c) => ({ value: String(c.id), label: c.name })),
    subcategories: tree.data
      .filter((c) => !query.categoryId || c.id === query.categoryId)
      .map((c) => ({
        label: c.name,
        options: c.subcategories.map((s) => ({ value: String(s.id), label: s.name })),
      })),
    skills: [...skillIds]
      .map((id) => ({ value: id, label: skillNames.get(id)! }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    countries: offered(facets.countries, params.country),
    languages: offered(facets.languages, params.language),
    params,
    selectedSkills,
    term: query.q ?? '',
    /** This search's query, for "Save this search" (decision 328). */
    search: url.search,
    /** Which hits the client saved, for their Save buttons, whose forms come back here (decision 336). */
    here: url.pathname + url.search,
    saved: await savedAmong(
      context,
      results.data.map((h) => h.userId),
    ),
  }
}

/** Save / Remove on a hit, back to the same results. */
export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'freelancers.find')
  return (await favouriteIntent(context, await request.formData(), url.pathname + url.search)) ?? null
}

type SearchData = Route.ComponentProps['loaderData']

export default function FindFreelancers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('profile')
  return (
    <main id="main" className="container page">
      <h1>{t('search.title')}</h1>
      <SaveSearchLinks kind="freelancer" url={loaderData.search} />
      <HiringHelpEntry />
      <div className="search-layout">
        <Form method="get" className="card search-filters" aria-label={t('search.filters')}>
          <WhatFilters data={loaderData} />
          <WhoFilters data={loaderData} />
          <button type="submit" className="button button-primary">
            {t('search.submit')}
          </button>
          <Link to="?">{t('search.reset')}</Link>
        </Form>
        <section aria-labelledby="results-title">
          <Results data={loaderData} />
        </section>
      </div>
    </main>
  )
}

/** The filters on the work: the term, the category and subcategory, and their skills. */
function WhatFilters({ data }: { data: SearchData }) {
  const { t } = useTranslation('profile')
  const { params, selectedSkills, term } = data
  const p = (k: string) => params[k] ?? ''
  return (
    <>
      <div className="field">
        <label htmlFor="search-term">{t('search.term')}</label>
        <input
          id="search-term"
          name="search"
          type="search"
          defaultValue={term}
          maxLength={100}
          placeholder={t('search.termPlaceholder')}
        />
      </div>
      <FilterSelect
        name="category"
        label={t('fields.category')}
        value={p('category')}
        any={t('search.any')}
        options={data.categories}
      />
      <div className="field">
        <label htmlFor="f-subcategory">{t('fields.subcategory')}</label>
        <select id="f-subcategory" name="subcategory" defaultValue={p('subcategory')}>
          <option value="">{t('search.any')}</option>
          {data.subcategories.map((group) => (
            <optgroup key={group.label} label={group.label}>
              <Options options={group.options} />
            </optgroup>
          ))}
        </select>
      </div>
      {/* Skills are ticked, not Ctrl-clicked in a multiple select (issue 15). */}
      {data.skills.length ? (
        // Keyed by the search, so Reset or a new search start from what the address asks for.
        <TagInput
          key={selectedSkills.join()}
          name="skill"
          legend={t('search.skills')}
          options={data.skills.map((k) => ({ id: k.value, name: k.label }))}
          selected={selectedSkills}
        />
      ) : (
        <p className="muted small">{t('search.skillsAfterCategory')}</p>
      )}
    </>
  )
}

/** The filters on the freelancer: where, rate, experience, availability, language, rating; and the order. */
function WhoFilters({ data }: { data: SearchData }) {
  const { t } = useTranslation('profile')
  const p = (k: string) => data.params[k] ?? ''
  return (
    <>
      <FilterSelect
        name="country"
        label={t('fields.country')}
        value={p('country')}
        any={t('search.any')}
        options={data.countries}
      />
      <div className="field-row">
        <div className="field">
          <label htmlFor="f-min">{t('search.minRate')}</label>
          <input id="f-min" name="minRate" inputMode="decimal" defaultValue={p('minRate')} size={6} />
        </div>
        <div className="field">
          <label htmlFor="f-max">{t('search.maxRate')}</label>
          <input id="f-max" name="maxRate" inputMode="decimal" defaultValue={p('maxRate')} size={6} />
        </div>
      </div>
      <FilterSelect
        name="currency"
        label={t('fields.currency')}
        value={p('currency')}
        any={t('search.anyCurrency')}
        options={currencies.map((c) => ({ value: c, label: c }))}
      />
      <FilterSelect
        name="experience"
        label={t('fields.experienceLevel')}
        value={p('experience')}
        any={t('search.any')}
        options={experienceLevels.map((v) => ({ value: v, label: t(`experience.${v}`) }))}
      />
      <FilterSelect
        name="availability"
        label={t('fields.availability')}
        value={p('availability')}
        any={t('search.any')}
        options={availabilities.map((v) => ({ value: v, label: t(`availability.${v}`) }))}
      />
      <FilterSelect
        name="language"
        label={t('fields.language')}
        value={p('language')}
        any={t('search.any')}
        options={data.languages}
      />
      <FilterSelect
        name="rating"
        label={t('search.rating')}
        value={p('rating')}
        any={t('search.any')}
        options={[4.5, 4, 3].map((r) => ({
          value: String(r),
          label: t('search.ratingAtLeast', { rating: r }),
        }))}
      />
      <VerifiedOnly checked={p('verified') === 'on'} />
      <FilterSelect
        name="sort"
        label={t('search.sort')}
        value={p('sort')}
        options={searchSorts.map((s) => ({ value: s, label: t(`search.sorts.${s}`) }))}
      />
    </>
  )
}

/** Only freelancers whose identity a SuperAdmin checked (decision 332). */
function VerifiedOnly({ checked }: { checked: boolean }) {
  const { t } = useTranslation('ui')
  return (
    <label className="choice">
      <input type="checkbox" name="verified" value="on" defaultChecked={checked} /> {t('verified.filter')}
    </label>
  )
}

function Results({ data: { results, params, selectedSkills, saved, here } }: { data: SearchData }) {
  const { t } = useTranslation('profile')
  const words = useWords()
  const hrefFor = (page: number) => {
    const s = new URLSearchParams(params)
    for (const skill of selectedSkills) s.append('skill', skill)
    if (page > 1) s.set('page', String(page))
    return `?${s.toString()}`
  }
  return (
    <>
      <h2 id="results-title" aria-live="polite">
        {t(results.capped ? 'search.countCapped' : 'search.count', {
          count: results.total,
          formatted: words.number(results.total),
        })}
      </h2>
      {results.data.length ? (
        <ul className="search-results">
          {results.data.map((h) => (
            <FreelancerHit
              key={h.userId}
              hit={h}
              save={saved ? { saved: saved.includes(h.userId), action: here } : undefined}
            />
          ))}
        </ul>
      ) : (
        <p className="empty-state">{t('search.none')}</p>
      )}
      {results.pages > 1 ? <ResultPages page={results.page} pages={results.pages} hrefFor={hrefFor} /> : null}
    </>
  )
}

function ResultPages({
  page,
  pages,
  hrefFor,
}: {
  page: number
  pages: number
  hrefFor: (page: number) => string
}) {
  const { t } = useTranslation('profile')
  return (
    <nav className="pagination" aria-label={t('search.pages')}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev">
          {t('search.previous')}
        </Link>
      ) : null}
      <ol>
        {pageWindow(page, pages).map((n) => (
          <li key={n}>
            <Link to={hrefFor(n)} aria-current={n === page ? 'page' : undefined}>
              {n}
            </Link>
          </li>
        ))}
      </ol>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} rel="next">
          {t('search.next')}
        </Link>
      ) : null}
    </nav>
  )
}

function pageWindow(page: number, pages: number) {
  const from = Math.max(1, Math.min(page - 3, pages - 6))
  return Array.from({ length: Math.min(7, pages) }, (_, i) => from + i)
}

/** Plain options, already named by the loader (no translation call per option). */
function Options({ options }: { options: Array<{ value: string; label: string }> }) {
  return options.map((o) => (
    <option key={o.value} value={o.value}>
      {o.label}
    </option>
  ))
}
