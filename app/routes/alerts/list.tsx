import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { Field, ReplyPostForm } from '~/components/auth/form'
import { ActionForm, Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { FilterSelect } from '~/components/ui/filter-select'
import { Notice } from '~/components/ui/notice'
import { useReplyForm } from '~/components/ui/reply-form'
import { Chip } from '~/components/ui/status-chip'
import { Role } from '#server/modules/identity/permissions.ts'
import { alertFrequencies } from '#server/modules/alerts/choices.ts'
import { alertsContract as c, savedSearchChange, type SavedSearch } from '#server/modules/alerts/contract.ts'
import { filterNames, type FilterNames } from './names.server'
import { FilterSummary, resultsUrl, wordFilters } from './ui'

// /alerts: a person's saved searches. Each card says what it searches, whether it is on, how often
// its digest goes and what waits for the next one; its form renames it and sets the frequency, and
// its buttons switch it on or off and delete it. Every form works without JavaScript.

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url)
  const list = await apiFor(context).call(c.list)
  const p = url.searchParams
  const words = wordsFor(getLocale(context))
  wordFilters(
    words,
    list.data.map((s) => s.filters),
  )
  return {
    searches: list.data,
    words: words.words,
    names: await filterNames(
      context,
      list.data.map((s) => s.filters),
    ),
    clientSide: user.roles.includes(Role.Client) || user.roles.includes(Role.Company),
    done: p.has('saved') ? 'saved' : p.has('changed') ? 'changed' : p.has('deleted') ? 'deleted' : null,
    title: getInstance(context).t('alerts:list.title'),
  }
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  const id = Number(form.get('id'))
  const intent = String(form.get('intent') ?? '')
  if (!Number.isSafeInteger(id) || id < 1) throw data('Bad Request', { status: 400 })
  const api = apiFor(context)
  if (intent === 'delete') {
    await api.call(c.remove, { params: { id } })
    return redirect('/alerts?deleted=1')
  }
  const submission = parseWithZod(form, { schema: savedSearchChange })
  if (submission.status !== 'success') return data({ id, result: submission.reply() }, { status: 400 })
  try {
    await api.call(c.change, { params: { id }, body: submission.value })
    return redirect(`/alerts?changed=${id}#search-${id}`)
  } catch (error) {
    const reply = replyWithApiError(submission, error, ['name', 'frequency'])
    return data({ id, result: reply.data }, reply.init ?? undefined)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Reply = Route.ComponentProps['actionData']

export default function SavedSearches({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('alerts')
  const { searches, names, clientSide, done } = loaderData
  return (
    <main id="main" className="container page">
      <h1>{t('list.title')}</h1>
      <p>{t('list.lead')}</p>
      {done ? (
        <Notice kind="success" data-testid="alerts-done">
          {t(`list.${done}`)}
        </Notice>
      ) : null}
      {searches.length ? (
        <ul className="ui-list" aria-label={t('list.title')}>
          {searches.map((s) => (
            <li key={s.id}>
              <SearchCard search={s} names={names} reply={actionData?.id === s.id ? actionData : undefined} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          title={t('list.empty')}
          action={
            <ButtonLink to={clientSide ? '/freelancers/freelancersearch' : '/projects/getprojects'}>
              {t(clientSide ? 'list.emptyFreelancer' : 'list.emptyProject')}
            </ButtonLink>
          }
        />
      )}
    </main>
  )
}

function SearchCard({ search: s, names, reply }: { search: SavedSearch; names: FilterNames; reply: Reply }) {
  const { t } = useTranslation('alerts')
  const form = useReplyForm(reply?.result, `search-${s.id}`, { name: s.name, frequency: s.frequency })
  const titleId = `search-${s.id}-title`
  return (
    <Card
      id={`search-${s.id}`}
      title={s.name}
      titleId={titleId}
      level={2}
      data-testid="saved-search"
      status={
        <Chip tone={s.active ? 'success' : 'neutral'} data-status={s.active ? 'on' : 'off'}>
          {t(s.active ? 'item.on' : 'item.off')}
        </Chip>
      }
      meta={s.fromProfile ? t('item.fromProfile') : undefined}
    >
      <FilterSummary filters={s.filters} names={names} fromProfile={s.fromProfile} />
      <p>
        {t('item.newMatches', { count: s.newMatches })} · <a href={resultsUrl(s)}>{t('item.showResults')}</a>
      </p>
      <details open={!!reply}>
        <summary>{t('item.settings', { name: s.name })}</summary>
        <ReplyPostForm form={form} id={`search-${s.id}-form`} intent="change">
          <input type="hidden" name="id" value={s.id} />
          <Field field={form.field('name')} label={t('item.name')} />
          <FilterSelect
            id={`search-${s.id}-frequency`}
            name="frequency"
            label={t('item.frequency')}
            value={form.field('frequency').defaultValue ?? s.frequency}
            options={alertFrequencies.map((f) => ({ value: f, label: t(`frequency.${f}`) }))}
          />
          <Button variant="primary">{t('item.save')}</Button>
        </ReplyPostForm>
      </details>
      <ButtonGroup label={t('item.settings', { name: s.name })}>
        <ActionForm
          intent="toggle"
          label={t(s.active ? 'item.switchOff' : 'item.switchOn')}
          fields={{ id: s.id, active: s.active ? 'false' : 'true' }}
          describedBy={titleId}
        />
        <ActionForm
          intent="delete"
          label={t('item.delete')}
          variant="destructive"
          fields={{ id: s.id }}
          describedBy={titleId}
        />
      </ButtonGroup>
    </Card>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
