import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import type { Route } from './+types/verification'
import { apiFor, ApiCallError } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance, getLocale } from '~/middleware/i18next'
import { useTranslation } from '~/lib/translations'
import { titled } from '~/lib/meta'
import { useWords, wordsFor } from '~/lib/words'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { Chip } from '~/components/ui/status-chip'
import type { Tone } from '~/components/ui/tones'
import { verificationContract as c, verificationRequestInput } from '#server/modules/verification/contract.ts'
import {
  DOCUMENT_MAX_KB,
  verificationKinds,
  type VerificationState,
} from '#server/modules/verification/choices.ts'

// Account settings › verified identity (issue 42 item 4, decision 332): where the person's request
// stands (none, pending, verified, or rejected with the reason) and, while they may ask, the form
// that sends one document. A plain multipart POST, so it works without JavaScript.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'account.settings')
  try {
    const status = await apiFor(context).call(c.status)
    const words = wordsFor(getLocale(context))
    for (const at of [status.requestedAt, status.decidedAt]) if (at) words.date(at)
    return { status, words: words.words, title: getInstance(context).t('verification:page.title') }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

type Answer = { errors: Record<string, string> }
const refused = (errors: Record<string, string>, status = 400) => data<Answer>({ errors }, { status })

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'account.settings')
  const form = await request.formData()
  const submission = parseWithZod(form, { schema: verificationRequestInput })
  const file = form.get('file')
  if (submission.status !== 'success') return refused({ kind: 'errors.kind' })
  if (!(file instanceof File) || file.size === 0 || !file.name) return refused({ file: 'errors.fileMissing' })
  const body = new FormData()
  body.set('kind', submission.value.kind)
  body.append('file', file, file.name)
  try {
    await postMultipart(context, 'verification', body)
  } catch (error) {
    if (!(error instanceof ApiCallError)) throw error
    if (error.status === 409)
      return refused({ form: error.code === 'already_verified' ? 'errors.verified' : 'errors.open' }, 409)
    if (error.status !== 400) throwApiError(error)
    return refused({ file: error.code === 'file_too_large' ? 'errors.fileSize' : 'errors.fileType' })
  }
  return redirectWithFlash('/profile/verification', {
    kind: 'success',
    message: getInstance(context).t('verification:page.sent'),
  })
}

const tones: Record<VerificationState, Tone> = {
  none: 'neutral',
  pending: 'progress',
  verified: 'success',
  rejected: 'danger',
}

export default function Verification({ loaderData: { status }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('verification')
  const words = useWords()
  const errors = (actionData as Answer | undefined)?.errors ?? {}
  const date = (at: string | null) => (at ? words.date(at) : '')
  return (
    <main id="main" className="container page narrow">
      <p>
        <Link to="/profile/account-settings">{t('page.back')}</Link>
      </p>
      <h1>{t('page.title')}</h1>
      <p className="lead">{t('page.lead')}</p>
      <section className="ui-card" aria-labelledby="verification-state">
        <h2 id="verification-state">
          {t('page.state')}{' '}
          <Chip tone={tones[status.state]} data-status={status.state} data-testid="verification-state">
            {t(`page.states.${status.state}`)}
          </Chip>
        </h2>
        {status.state === 'pending' ? <p>{t('page.pending', { date: date(status.requestedAt) })}</p> : null}
        {status.state === 'verified' ? <p>{t('page.verified', { date: date(status.decidedAt) })}</p> : null}
        {status.state === 'rejected' ? (
          <>
            <p>{t('page.rejected', { date: date(status.decidedAt) })}</p>
            <p data-testid="verification-reason">{t('page.reason', { reason: status.reason ?? '' })}</p>
            <p>{t('page.askAgain')}</p>
          </>
        ) : null}
        {!status.canAsk && status.state === 'none' ? <p>{t('page.notEligible')}</p> : null}
      </section>
      {errors.form ? <Notice kind="error">{t(errors.form)}</Notice> : null}
      {status.canAsk ? <VerificationForm errors={errors} /> : null}
    </main>
  )
}

/** The request: what the document is, and the document itself. */
function VerificationForm({ errors }: { errors: Record<string, string> }) {
  const { t } = useTranslation('verification')
  const size = DOCUMENT_MAX_KB / 1024
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="ui-card form-stack"
      data-testid="verification-form"
    >
      <p>{t('page.privacy')}</p>
      <fieldset className="field" aria-describedby={errors.kind ? 'kind-error' : undefined}>
        <legend>{t('page.kind')}</legend>
        {verificationKinds.map((kind, i) => (
          <label key={kind} className="choice">
            <input type="radio" name="kind" value={kind} defaultChecked={i === 0} required />{' '}
            {t(`page.kinds.${kind}`)}
          </label>
        ))}
        {errors.kind ? (
          <p className="field-error" id="kind-error">
            {t(errors.kind, { defaultValue: errors.kind })}
          </p>
        ) : null}
      </fieldset>
      <div className="field">
        <label htmlFor="verification-file">{t('page.file')}</label>
        <input
          id="verification-file"
          name="file"
          type="file"
          required
          accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
          aria-describedby={
            errors.file ? 'verification-file-hint verification-file-error' : 'verification-file-hint'
          }
          aria-invalid={errors.file ? true : undefined}
        />
        <p className="hint" id="verification-file-hint">
          {t('page.fileHint', { size })}
        </p>
        {errors.file ? (
          <p className="field-error" id="verification-file-error">
            {t(errors.file, { size })}
          </p>
        ) : null}
      </div>
      <div>
        <Button variant="primary">{t('page.submit')}</Button>
      </div>
    </Form>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
