import { data, Form } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/project-review-rule'
import { apiFor } from '~/lib/api.server'
import { actionApiError, throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Button, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Notice } from '~/components/ui/notice'
import { catalogueContract } from '#server/modules/catalogue/contract.ts'
import { projectReviewContract as c, reviewRuleInput } from '#server/modules/projects/review/contract.ts'
import { reviewRuleKinds } from '#server/modules/projects/review/limits.ts'

// /admin/project-review/rule (SuperAdmin only; decision 339): which new projects wait for review
// before they are public. Radios for the kind, checkboxes for the categories; a plain form.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  try {
    const api = apiFor(context)
    const [rule, categories] = await Promise.all([
      api.call(c.rule),
      api.call(catalogueContract.categoryOptions),
    ])
    return {
      rule,
      categories: categories.data,
      title: getInstance(context).t('admin:projectReview.rule.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  const { t } = getInstance(context)
  const submission = parseWithZod(await request.formData(), { schema: reviewRuleInput })
  if (submission.status !== 'success') return data({ error: 'categoryIds' }, { status: 400 })
  try {
    await apiFor(context).call(c.setRule, { body: submission.value })
  } catch (error) {
    const answer = actionApiError(error, t)
    return answer.init?.status === 400 ? data({ error: 'categoryIds' }, { status: 400 }) : answer
  }
  return redirectWithFlash(url.pathname, { kind: 'success', message: t('admin:projectReview.rule.saved') })
}

export default function ReviewRule({ loaderData: { rule, categories }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('admin')
  const answer = actionData as { error?: string; notice?: { message?: string } } | undefined
  const error = answer?.error ? t('projectReview.rule.errors.categoryIds') : null
  return (
    <main id="main" className="container page">
      <h1>{t('projectReview.rule.title')}</h1>
      <p className="lead">{t('projectReview.rule.lead')}</p>
      {answer?.notice?.message ? <Notice kind="error">{answer.notice.message}</Notice> : null}
      <Card as="section">
        <Form method="post" className="form-stack" data-testid="review-rule">
          <fieldset className="field">
            <legend>{t('projectReview.rule.kind')}</legend>
            <div>
              {reviewRuleKinds.map((k) => (
                <label key={k}>
                  <input type="radio" name="kind" value={k} defaultChecked={rule.kind === k} />{' '}
                  {t(`projectReview.rule.kinds.${k}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="field" aria-describedby={error ? 'categoryIds-error' : undefined}>
            <legend>{t('projectReview.rule.categories')}</legend>
            <div>
              {categories.map((cat) => (
                <label key={cat.id}>
                  <input
                    type="checkbox"
                    name="categoryIds"
                    value={cat.id}
                    defaultChecked={rule.categoryIds.includes(cat.id)}
                  />{' '}
                  {cat.name}
                </label>
              ))}
            </div>
            {error ? (
              <p className="field-error" id="categoryIds-error">
                {error}
              </p>
            ) : null}
          </fieldset>
          <div>
            <Button variant="primary">{t('projectReview.rule.save')}</Button>
          </div>
        </Form>
      </Card>
      <p>
        <ButtonLink to="/admin/project-review">{t('projectReview.rule.back')}</ButtonLink>
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
