import type { Route } from './+types/list'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { notConfirmed, unconfirmed } from '~/lib/confirm.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { EmptyState } from '~/components/ui/empty-state'
import { Confirm } from '~/components/ui/confirm'
import { adminContentContract as c } from '#server/modules/content/admin-contract.ts'
import { itemLabel, kindForms, kindOf, writtenIn } from './kinds'

// /admin/content/:kind: every item of one kind in the public order, with its languages, and the
// moves that need no form of their own: up and down, publish and unpublish (blog posts), delete.
// Each is a small POST form, so all of it works without JavaScript.
export async function loader({ context, url, params }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  const kind = kindOf(params)
  try {
    const { data } = await apiFor(context).call(c[kind].list)
    return {
      kind,
      items: data as Array<Record<string, unknown> & { id: number; published?: boolean }>,
      title: getInstance(context).t(`adminContent:kinds.${kind}.title`),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url, params }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const kind = kindOf(params)
  const form = await request.formData()
  const id = Number(form.get('id'))
  const intent = String(form.get('intent') ?? '')
  const t = getInstance(context).t
  const api = apiFor(context)
  const back = (key: string) =>
    redirectWithFlash(`/admin/content/${kind}`, { kind: 'success', message: t(`adminContent:done.${key}`) })
  try {
    if (intent === 'up' || intent === 'down') {
      await api.call(c[kind].move, { params: { id }, body: { direction: intent } })
      return back('moved')
    }
    if (intent === 'publish' || intent === 'unpublish') {
      await api.call(c.blogs.publish, { params: { id }, body: { published: intent === 'publish' } })
      return back(intent === 'publish' ? 'published' : 'unpublished')
    }
    if (intent === 'delete') {
      if (unconfirmed('adminContent', intent, form)) return notConfirmed(context, `/admin/content/${kind}`)
      await api.call(c[kind].remove, { params: { id } })
      return back('deleted')
    }
  } catch (error) {
    throwApiError(error)
  }
  throw new Response('Bad Request', { status: 400 })
}

type Item = Route.ComponentProps['loaderData']['items'][number]

export default function ContentList({ loaderData: { kind, items } }: Route.ComponentProps) {
  const { t } = useTranslation('adminContent')
  return (
    <main id="main" className="page">
      <h1>{t(`kinds.${kind}.title`)}</h1>
      <p className="lead">{t(`kinds.${kind}.lead`)}</p>
      <p>
        <ButtonLink variant="primary" to={`/admin/content/${kind}/new`}>
          {t(`kinds.${kind}.add`)}
        </ButtonLink>
      </p>
      {items.length ? (
        <ol className="ui-list" aria-label={t(`kinds.${kind}.title`)}>
          {items.map((item, index) => (
            <ItemCard
              key={item.id}
              kind={kind}
              item={item}
              first={index === 0}
              last={index === items.length - 1}
            />
          ))}
        </ol>
      ) : (
        <EmptyState title={t('empty')} />
      )}
    </main>
  )
}

/** One item: its name, state and languages, and what can be done to it. */
function ItemCard({
  kind,
  item,
  first,
  last,
}: {
  kind: Route.ComponentProps['loaderData']['kind']
  item: Item
  first: boolean
  last: boolean
}) {
  const { t, i18n } = useTranslation('adminContent')
  const label = itemLabel(item, i18n.language)
  const labelId = `item-${item.id}`
  return (
    <Card
      as="li"
      level={2}
      data-testid="content-item"
      titleId={labelId}
      title={<Link to={`/admin/content/${kind}/${item.id}`}>{label}</Link>}
      status={
        item.published === undefined ? null : (
          <Chip tone={item.published ? 'success' : 'neutral'}>
            {t(item.published ? 'state.published' : 'state.draft')}
          </Chip>
        )
      }
      meta={
        kindForms[kind].texts.length ? (
          <span className="muted small">
            {t('languages', { list: writtenIn(item).join(', ').toUpperCase() })}
          </span>
        ) : null
      }
    >
      <ItemActions kind={kind} item={item} label={label} labelId={labelId} first={first} last={last} />
    </Card>
  )
}

function ItemActions({
  kind,
  item,
  label,
  labelId,
  first,
  last,
}: {
  kind: Route.ComponentProps['loaderData']['kind']
  item: Item
  label: string
  labelId: string
  first: boolean
  last: boolean
}) {
  const { t } = useTranslation('adminContent')
  const ordered = kindForms[kind].ordered
  return (
    <ButtonGroup label={t('actionsFor', { name: label })}>
      <ButtonLink to={`/admin/content/${kind}/${item.id}`}>{t('edit')}</ButtonLink>
      {ordered && !first ? (
        <ActionForm intent="up" label={t('moveUp')} fields={{ id: item.id }} describedBy={labelId} />
      ) : null}
      {ordered && !last ? (
        <ActionForm intent="down" label={t('moveDown')} fields={{ id: item.id }} describedBy={labelId} />
      ) : null}
      {item.published === undefined ? null : (
        <ActionForm
          intent={item.published ? 'unpublish' : 'publish'}
          label={t(item.published ? 'unpublish' : 'publish')}
          fields={{ id: item.id }}
          describedBy={labelId}
          variant={item.published ? 'secondary' : 'primary'}
        />
      )}
      <Confirm
        label={t('delete')}
        fields={{ intent: 'delete', id: item.id }}
        describedBy={labelId}
        variant="destructive"
        question={t('confirmDelete', { name: label })}
        yes={t('confirmDeleteYes')}
      />
    </ButtonGroup>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
