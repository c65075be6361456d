import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, redirect, Form } from 'react-router'
import type { Route } from './+types/reviews'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { projectsContract as c, reviewInput } from '#server/modules/projects/contract.ts'
import { refused } from './projects/actions.server'
import { ErrorText } from '~/components/projects/error-text'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { EmptyState } from '~/components/ui/empty-state'
import { Notice } from '~/components/ui/notice'
import { Person, Rating } from '~/components/ui/person'
import { titled } from '~/lib/meta'

// /reviews (login required, docs/product.md §6): reviews about me, the ones I wrote that are still hidden, and
// a form for each completed contract I have not reviewed yet (rating 1–5 and a text).

export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const result = await apiFor(context).call(c.reviews, { query: { page: 1, pageSize: 50 } })
    const words = wordsFor(getLocale(context))
    if (result.count) words.rating(result.average)
    return {
      result,
      words: words.words,
      written: url.searchParams.get('written') === '1',
      title: getInstance(context).t('projects:reviews.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  // The contract is the address of the review, not a field of it.
  const contractId = Number(form.get('contractId'))
  const submission = parseWithZod(form, { schema: reviewInput })
  if (submission.status !== 'success') return data({ contractId, reply: submission.reply() }, { status: 400 })
  try {
    await apiFor(context).call(c.writeReview, { params: { contractId }, body: submission.value })
  } catch (error) {
    return refused(error)
  }
  return redirect('/reviews?written=1')
}

type Failed = { contractId?: number; reply?: { error?: Errors }; notice?: string }
type Errors = Record<string, string[] | null>

export default function Reviews({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  const { result, written } = loaderData
  const failed = actionData as Failed | undefined
  const about = result.data.filter((r) => r.visible)
  const pending = result.data.filter((r) => !r.visible)
  return (
    <main id="main" className="container page">
      <h1>{t('reviews.title')}</h1>
      {written ? <Notice kind="success">{t('reviews.written')}</Notice> : null}
      {failed?.notice ? <Notice kind="error">{failed.notice}</Notice> : null}
      <p className="lead">
        <Rating value={result.average} count={result.count} />
      </p>
      {result.toWrite.length ? (
        <section aria-labelledby="to-write" className="ui-section">
          <h2 id="to-write">{t('reviews.toWrite')}</h2>
          {result.toWrite.map((w) => (
            <ReviewForm
              key={w.contractId}
              toWrite={w}
              errors={failed?.contractId === w.contractId ? failed.reply?.error : undefined}
            />
          ))}
        </section>
      ) : null}
      {pending.length ? (
        <section aria-labelledby="hidden-reviews" className="ui-section">
          <h2 id="hidden-reviews">{t('reviews.hidden')}</h2>
          {pending.map((r) => (
            <Card key={r.id} title={r.projectTitle} meta={t('reviews.stars', { count: r.rating })}>
              <p className="prewrap">{r.body}</p>
            </Card>
          ))}
        </section>
      ) : null}
      <section aria-labelledby="about-me" className="ui-section">
        <h2 id="about-me">{t('reviews.aboutMe')}</h2>
        {about.length ? null : <EmptyState title={t('reviews.noneYet')} />}
        {about.map((r) => (
          <Card
            key={r.id}
            data-testid="review"
            title={
              <Person name={r.author.name} imageUrl={r.author.imageUrl} subtitle={r.projectTitle} size={40} />
            }
            meta={t('reviews.stars', { count: r.rating })}
          >
            <p className="prewrap">{r.body}</p>
          </Card>
        ))}
      </section>
    </main>
  )
}

/** A review to write for a completed contract: a rating of 1 to 5 and a text. */
function ReviewForm({
  toWrite: w,
  errors,
}: {
  toWrite: Route.ComponentProps['loaderData']['result']['toWrite'][number]
  errors: Errors | undefined
}) {
  const { t } = useTranslation('projects')
  return (
    <Form
      method="post"
      className="ui-card form-stack"
      data-testid="review-form"
      aria-labelledby={`review-title-${w.contractId}`}
    >
      <h3 id={`review-title-${w.contractId}`}>
        {t('reviews.about', { name: w.subject.name, project: w.projectTitle })}
      </h3>
      <input type="hidden" name="contractId" value={w.contractId} />
      <fieldset className="field">
        <legend>{t('reviews.rating')}</legend>
        <div>
          {[5, 4, 3, 2, 1].map((n) => (
            <label key={n}>
              <input type="radio" name="rating" value={n} /> {t('reviews.stars', { count: n })}
            </label>
          ))}
        </div>
        <ErrorText errors={errors?.rating ?? undefined} />
      </fieldset>
      <div className="field">
        <label htmlFor={`review-${w.contractId}`}>{t('reviews.text')}</label>
        <textarea id={`review-${w.contractId}`} name="body" rows={4} maxLength={2000} />
        <ErrorText errors={errors?.body ?? undefined} />
      </div>
      <div>
        <Button variant="primary">{t('reviews.submit')}</Button>
      </div>
    </Form>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
