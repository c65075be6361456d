import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/new'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { Field, ReplyPostForm } from '~/components/auth/form'
import { Button, ButtonGroup } from '~/components/ui/button'
import { FilterSelect } from '~/components/ui/filter-select'
import { useReplyForm } from '~/components/ui/reply-form'
import { alertFrequencies } from '#server/modules/alerts/choices.ts'
import { alertsContract, savedSearchInput, type SavedSearch } from '#server/modules/alerts/contract.ts'
import { filterNames } from './names.server'
import { FilterSummary, resultsUrl, wordFilters } from './ui'

// /alerts/new: "Save this search" from Find Project (or Find Freelancers, kind=freelancer). The
// search page's own URL is this page's query; the form carries its filters as hidden fields beside
// the name and the digest's frequency, and the action saves them with the API's own schema.

/** The search page's URL as a saved search's filters (Find Project's budgets are in major units). */
function filtersFromUrl(p: URLSearchParams): { kind: SavedSearch['kind']; filters: SavedSearch['filters'] } {
  const kind = p.get('kind') === 'freelancer' ? 'freelancer' : 'project'
  const num = (k: string) => (/^\d{1,9}$/.test(p.get(k) ?? '') ? Number(p.get(k)) : undefined)
  const word = (p.get(kind === 'freelancer' ? 'q' : 'search') ?? '').trim().slice(0, 100)
  const skills = p
    .getAll(kind === 'freelancer' ? 'skill' : 'skills')
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number)
    .slice(0, 15)
  const filters: SavedSearch['filters'] = {
    search: word && word.toLowerCase() !== 'all' ? word : undefined,
    categoryId: num('categoryId'),
    subcategoryId: num('subcategoryId'),
    skills,
  }
  if (kind === 'project') {
    const type = p.get('budgetType')
    if (type === 'fixed' || type === 'hourly') filters.budgetType = type
    if (num('budgetMin') !== undefined) filters.budgetMin = num('budgetMin')! * 100
    if (num('budgetMax') !== undefined) filters.budgetMax = num('budgetMax')! * 100
    if (p.get('remote') === 'true' || p.get('remote') === 'false') filters.remote = p.get('remote') === 'true'
  }
  return { kind, filters }
}

export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const { kind, filters } = filtersFromUrl(url.searchParams)
  const words = wordsFor(getLocale(context))
  wordFilters(words, [filters])
  return {
    kind,
    filters,
    words: words.words,
    names: await filterNames(context, [filters]),
    back: resultsUrl({ kind, filters }),
    title: getInstance(context).t('alerts:new.title'),
  }
}

const shown = ['name', 'frequency']

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const submission = parseWithZod(await request.formData(), { schema: savedSearchInput })
  if (submission.status !== 'success') {
    // A refused filter has no field on this page: its message shows above the form.
    const hidden = Object.entries(submission.error ?? {})
      .filter(([k, v]) => k && !shown.includes(k) && v?.length)
      .map(([k, v]) => `${k}: ${v![0]}`)
    return data({ result: submission.reply({ formErrors: hidden }) }, { status: 400 })
  }
  try {
    const saved = await apiFor(context).call(alertsContract.create, { body: submission.value })
    return redirect(`/alerts?saved=${saved.id}#search-${saved.id}`)
  } catch (error) {
    const reply = replyWithApiError(submission, error, shown)
    return data({ result: reply.data }, reply.init ?? undefined)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

/** The filters as the hidden fields the schema reads (a list field once per value). */
function hiddenFields(kind: string, f: SavedSearch['filters']) {
  const pairs: Array<[string, string]> = [['kind', kind]]
  for (const [k, v] of Object.entries(f)) {
    if (Array.isArray(v)) for (const one of v) pairs.push([k, String(one)])
    else if (v !== undefined) pairs.push([k, String(v)])
  }
  return pairs
}

export default function NewSavedSearch({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('alerts')
  const { kind, filters, names, back } = loaderData
  const form = useReplyForm(actionData?.result, 'save-search', { name: '', frequency: 'daily' })
  return (
    <main id="main" className="container page narrow">
      <h1>{t('new.title')}</h1>
      <p>{t('new.lead')}</p>
      <section aria-labelledby="save-search-filters" className="ui-card">
        <h2 id="save-search-filters">{t('new.filters')}</h2>
        <FilterSummary filters={filters} names={names} />
      </section>
      <ReplyPostForm form={form} id="save-search">
        {hiddenFields(kind, filters).map(([k, v], i) => (
          <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
        ))}
        <Field field={form.field('name')} label={t('item.name')} />
        <FilterSelect
          id="save-search-frequency"
          name="frequency"
          label={t('item.frequency')}
          value={form.field('frequency').defaultValue ?? 'daily'}
          options={alertFrequencies.map((f) => ({ value: f, label: t(`frequency.${f}`) }))}
        />
        <ButtonGroup>
          <Button variant="primary">{t('new.save')}</Button>
          <Link to={back}>{t('new.back')}</Link>
        </ButtonGroup>
      </ReplyPostForm>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
