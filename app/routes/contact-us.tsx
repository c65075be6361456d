import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '~/lib/translations'
import { data, useLocation, useNavigation, Form } from 'react-router'
import type { Route } from './+types/contact-us'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { contactSchema } from '~/lib/content-forms'
import { noticeFor } from '~/lib/errors'
import { redirectWithFlash } from '~/lib/flash.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { TextField, type FieldReply } from '~/components/ui/field'
import { contentContract } from '#server/modules/content/contract.ts'
import { titled } from '~/lib/meta'

export function loader({ context }: Route.LoaderArgs) {
  return { title: getInstance(context).t('content:contact.title') }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// A real form that reaches the support inbox: the API stores the message and mails it (outbox).
export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: contactSchema })
  if (submission.status !== 'success')
    return data({ result: submission.reply(), notice: null }, { status: 400 })
  const t = getInstance(context).t
  try {
    await apiFor(context).call(contentContract.contact, { body: submission.value })
  } catch (error) {
    if (!(error instanceof ApiCallError) || [401, 402, 403, 404].includes(error.status)) throwApiError(error)
    const known = Object.fromEntries(
      Object.entries(error.fieldErrors).filter(([k]) => k in contactSchema.shape),
    )
    const notice = noticeFor(error.status, error.problem, t, error.retryAfter)
    return data(
      {
        result: submission.reply({
          fieldErrors: known,
          formErrors: Object.keys(known).length ? [] : [notice.message],
        }),
        notice,
      },
      { status: error.status },
    )
  }
  return redirectWithFlash('/contact-us', { kind: 'success', message: t('content:contact.sent') })
}

export default function ContactUs({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const navigation = useNavigation()
  const location = useLocation()
  const busy = navigation.state === 'submitting'
  // The schema (zod, through conform) runs on the server only, which keeps both libraries out of
  // the page's JavaScript; the browser checks the same limits through the HTML constraints.
  const reply = navigation.state === 'idle' ? actionData?.result : undefined
  const formError = reply?.error?.['']?.[0]
  return (
    <main id="main" className="page-main">
      <header className="page-header">
        <div className="container">
          <h1>{t('contact.title')}</h1>
          <p className="lead">{t('contact.lead')}</p>
        </div>
      </header>
      <div className="container page narrow">
        {actionData?.notice ? (
          <div className="notice notice-error" role="alert" id="contact-error">
            <h2>{actionData.notice.title}</h2>
            <p className="pre-line">{actionData.notice.message}</p>
          </div>
        ) : null}
        {formError && !actionData?.notice ? (
          <p className="notice notice-error" role="alert">
            {formError}
          </p>
        ) : null}
        {/* A new key after each navigation (the redirect of a sent message) empties the form. */}
        <Form
          key={location.key}
          method="post"
          className="card form-card form-stack"
          aria-describedby={actionData?.notice ? 'contact-error' : undefined}
        >
          <ContactFields reply={reply} />
          <p>
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? t('contact.sending') : t('contact.send')}
            </button>
          </p>
        </Form>
      </div>
    </main>
  )
}

/** Who writes (name, email), about what, and the message; the API's limits as HTML constraints. */
function ContactFields({ reply }: { reply: FieldReply | undefined }) {
  const { t } = useTranslation('content')
  return (
    <>
      <div className="field-row">
        <TextField
          name="name"
          reply={reply}
          label={t('contact.name')}
          ns="content"
          autoComplete="name"
          required
          minLength={2}
          maxLength={100}
        />
        <TextField
          name="email"
          reply={reply}
          label={t('contact.email')}
          ns="content"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
        />
      </div>
      <TextField
        name="subject"
        reply={reply}
        label={t('contact.subject')}
        ns="content"
        required
        minLength={3}
        maxLength={150}
      />
      <TextField
        name="message"
        reply={reply}
        label={t('contact.message')}
        ns="content"
        multiline
        required
        minLength={10}
        maxLength={5000}
      />
    </>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
