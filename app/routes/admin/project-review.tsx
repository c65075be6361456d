import { data, Form } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/project-review'
import { adminList } from '~/lib/admin-list.server'
import { apiFor } from '~/lib/api.server'
import { actionApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { useWords } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { ActionForm, Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { projectReviewContract as c, returnInput } from '#server/modules/projects/review/contract.ts'
import { REASON_MAX } from '#server/modules/projects/review/limits.ts'
import { listPage } from '~/lib/list-page'

// /admin/project-review (SuperAdmin only; decision 339): the projects the review rule caught,
// oldest first, each with its content, an Approve button and a Return form whose reason is
// required. Plain forms: it works without JavaScript.
export async function loader({ context, url }: Route.LoaderArgs) {
  const page = listPage(url)
  return adminList(
    context,
    url,
    'admin:projectReview.title',
    (api) => api.call(c.queue, { query: { page } }),
    (words, result) => {
      for (const p of result.data) {
        words.date(p.submittedAt)
        words.money(p.budgetMinor, p.currency)
      }
    },
  )
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Answer = { projectId?: number; error?: string; notice?: unknown; fields?: unknown }

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const form = await request.formData()
  const projectId = Number(form.get('projectId'))
  const title = String(form.get('title') ?? '')
  const { t } = getInstance(context)
  const api = apiFor(context)
  try {
    if (form.get('intent') === 'approve') {
      await api.call(c.approve, { params: { projectId } })
      return redirectWithFlash(url.pathname, {
        kind: 'success',
        message: t('admin:projectReview.approved', { title }),
      })
    }
    const submission = parseWithZod(form, { schema: returnInput })
    if (submission.status !== 'success')
      return data<Answer>({ projectId, error: 'projectReview.errors.reason' }, { status: 400 })
    await api.call(c.return, { params: { projectId }, body: submission.value })
    return redirectWithFlash(url.pathname, {
      kind: 'success',
      message: t('admin:projectReview.returnedNotice', { title }),
    })
  } catch (error) {
    return actionApiError(error, t)
  }
}

type Item = Route.ComponentProps['loaderData']['result']['data'][number]

function ReviewItem({ p, answer }: { p: Item; answer?: Answer }) {
  const { t } = useTranslation(['admin', 'projects'])
  const words = useWords()
  const mine = answer?.projectId === p.id ? answer : undefined
  const reasonId = `reason-${p.id}`
  return (
    <Card
      as="li"
      level={2}
      titleId={`review-${p.id}`}
      title={p.title}
      status={<StatusChip machine="project" state={p.status} />}
      meta={t('projectReview.submitted', {
        date: words.date(p.submittedAt),
        name: p.client.name,
      })}
      data-testid="review-item"
    >
      <p className="prewrap">{p.description}</p>
      <DefinitionList
        items={[
          [t('projectReview.category'), [p.category?.name, p.subcategory?.name].filter(Boolean).join(' › ')],
          [t('projectReview.budget'), words.money(p.budgetMinor, p.currency)],
          [
            t('projectReview.files'),
            p.attachments.length ? (
              <ul className="file-list">
                {p.attachments.map((f) => (
                  <li key={f.id}>
                    <a href={`/projects/files/${f.id}`} download={f.name}>
                      {f.name}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null,
          ],
        ]}
      />
      <ButtonGroup label={p.title}>
        <ActionForm
          intent="approve"
          variant="primary"
          label={t('projectReview.approve')}
          fields={{ projectId: p.id, title: p.title }}
        />
      </ButtonGroup>
      <Form method="post" className="form-stack">
        <input type="hidden" name="intent" value="return" />
        <input type="hidden" name="projectId" value={p.id} />
        <input type="hidden" name="title" value={p.title} />
        <div className="field">
          <label htmlFor={reasonId}>{t('projectReview.reason')}</label>
          <textarea
            id={reasonId}
            name="reason"
            rows={3}
            maxLength={REASON_MAX}
            aria-invalid={mine?.error ? true : undefined}
            aria-describedby={mine?.error ? `${reasonId}-error` : undefined}
          />
          {mine?.error ? (
            <p className="field-error" id={`${reasonId}-error`}>
              {t(mine.error)}
            </p>
          ) : null}
        </div>
        <div>
          <Button>{t('projectReview.return')}</Button>
        </div>
      </Form>
    </Card>
  )
}

export default function ProjectReviewQueue({
  loaderData: { result, url },
  actionData,
}: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const answer = actionData as (Answer & { notice?: { message?: string } }) | undefined
  return (
    <main id="main" className="container page">
      <h1>{t('projectReview.title')}</h1>
      <p className="lead">{t('projectReview.lead')}</p>
      <p>
        <ButtonLink to="/admin/project-review/rule">{t('projectReview.ruleLink')}</ButtonLink>
      </p>
      {answer?.notice?.message ? <Notice kind="error">{answer.notice.message}</Notice> : null}
      {result.data.length ? (
        <ul className="ui-list" aria-label={t('projectReview.title')}>
          {result.data.map((p) => (
            <ReviewItem key={p.id} p={p} answer={answer} />
          ))}
        </ul>
      ) : (
        <EmptyState title={t('projectReview.empty')} />
      )}
      <Pagination url={url} page={result.page} pageSize={result.pageSize} total={result.total} />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
