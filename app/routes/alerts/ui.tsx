import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import type { SavedSearch } from '#server/modules/alerts/contract.ts'
import type { FilterNames } from './names.server'

/** The budgets of `FilterSummary`s (saved in euros), for their page's loader to word. */
export function wordFilters(words: Wording, list: ReadonlyArray<SavedSearch['filters']>) {
  for (const f of list)
    for (const minor of [f.budgetMin, f.budgetMax]) if (minor !== undefined) words.money(minor, 'EUR')
}

// A saved search's filters in words, as chips: what a person chose on the search page.
export function FilterSummary({
  filters,
  names,
  fromProfile = false,
}: {
  filters: SavedSearch['filters']
  names: FilterNames
  fromProfile?: boolean
}) {
  const { t } = useTranslation('alerts')
  const words = useWords()
  const money = (minor: number) => words.money(minor, 'EUR')
  const parts = [
    filters.search ? t('filters.words', { words: filters.search }) : null,
    filters.categoryId
      ? t('filters.category', { name: names[`c${filters.categoryId}`] ?? filters.categoryId })
      : null,
    filters.subcategoryId
      ? t('filters.subcategory', { name: names[`s${filters.subcategoryId}`] ?? filters.subcategoryId })
      : null,
    filters.skills.length
      ? t('filters.skills', { names: filters.skills.map((id) => names[`k${id}`] ?? id).join(', ') })
      : null,
    filters.budgetType ? t(`filters.${filters.budgetType}`) : null,
    filters.budgetMin !== undefined ? t('filters.budgetFrom', { amount: money(filters.budgetMin) }) : null,
    filters.budgetMax !== undefined ? t('filters.budgetTo', { amount: money(filters.budgetMax) }) : null,
    filters.remote === undefined ? null : t(filters.remote ? 'filters.remote' : 'filters.onSite'),
  ].filter((p): p is string => !!p)
  if (!parts.length)
    return <p className="muted">{t(fromProfile ? 'filters.noneYet' : 'filters.everything')}</p>
  return (
    <ul className="chips" aria-label={t('new.filters')}>
      {parts.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  )
}

/** Where a saved search's results are: its search page with its filters in the URL. */
export function resultsUrl(s: Pick<SavedSearch, 'kind' | 'filters'>) {
  const q = new URLSearchParams()
  const f = s.filters
  if (s.kind === 'freelancer') {
    if (f.search) q.set('q', f.search)
    if (f.categoryId) q.set('categoryId', String(f.categoryId))
    if (f.subcategoryId) q.set('subcategoryId', String(f.subcategoryId))
    for (const id of f.skills) q.append('skill', String(id))
    return `/freelancers/freelancersearch?${q}`
  }
  if (f.search) q.set('search', f.search)
  if (f.categoryId) q.set('categoryId', String(f.categoryId))
  if (f.budgetType) q.set('budgetType', f.budgetType)
  // Find Project's URL has budgets in major units.
  if (f.budgetMin !== undefined) q.set('budgetMin', String(Math.floor(f.budgetMin / 100)))
  if (f.budgetMax !== undefined) q.set('budgetMax', String(Math.floor(f.budgetMax / 100)))
  if (f.remote !== undefined) q.set('remote', String(f.remote))
  return `/projects/getprojects?${q}`
}
