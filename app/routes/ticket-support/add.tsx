import { useTranslation } from '~/lib/translations'
import { Form, Link } from 'react-router'
import type { Route } from './+types/add'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { TextField } from '~/components/ui/field'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { complaintsContract as c, type ComplaintSubject } from '#server/modules/complaints/contract.ts'
import { complaintLimits } from '#server/modules/complaints/limits.ts'
import { newComplaintSchema } from '#server/modules/complaints/rules.ts'
import { isSent, submitWithFiles, type FormAnswer } from './api.server'
import { FieldError, FilesField } from './ui'

// /ticketSupport/addComplaints, "Add Complaints" (docs/product.md §2): what it is about (one of the user's own
// projects, contracts, installments, chats or the people they worked with, or the platform), a
// title, what happened and files. A plain multipart POST; the ticket opens once it is stored.
// `?subject=contract:12` preselects the object (links from a contract or a chat may use it).
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const subjects = await apiFor(context).call(c.subjects, {})
    return {
      subjects: subjects.data,
      preselected: url.searchParams.get('subject') ?? '',
      title: getInstance(context).t('complaints:add.title'),
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
  const answer = await submitWithFiles(context, form, newComplaintSchema, 'complaints', (body) =>
    apiFor(context).call(c.create, { body }),
  )
  if (!isSent(answer)) return answer
  return redirectWithFlash(`/ticketSupport/${answer.ok.id}`, {
    kind: 'success',
    message: getInstance(context).t('complaints:add.sent'),
  })
}

const valueOf = (s: ComplaintSubject) => (s.kind === 'platform' ? 'platform' : `${s.kind}:${s.id}`)

export default function AddComplaint({
  loaderData: { subjects, preselected },
  actionData,
}: Route.ComponentProps) {
  const { t } = useTranslation('complaints')
  const answer = actionData as FormAnswer | undefined
  const reply = answer?.reply
  const chosen = typeof reply?.initialValue?.subject === 'string' ? reply.initialValue.subject : preselected
  return (
    <main id="main" className="container page narrow">
      <p>
        <Link to="/ticketSupport">{t('add.back')}</Link>
      </p>
      <h1>{t('add.title')}</h1>
      <p className="lead">{t('add.lead')}</p>
      {answer?.notice ? (
        <Notice kind="error">{t(answer.notice, { defaultValue: answer.notice })}</Notice>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        className="ui-card form-stack"
        data-testid="complaint-form"
      >
        <SubjectField subjects={subjects} chosen={chosen} error={reply?.error?.subject?.[0]} />
        <TextField
          name="title"
          reply={reply}
          label={t('add.titleField')}
          ns="complaints"
          required
          minLength={3}
          maxLength={complaintLimits.title}
        />
        <TextField
          name="description"
          reply={reply}
          label={t('add.description')}
          ns="complaints"
          multiline
          required
          minLength={10}
          maxLength={complaintLimits.body}
        />
        <FilesField error={reply?.error?.files?.[0]} label={t('add.files')} />
        <div>
          <Button variant="primary">{t('add.submit')}</Button>
        </div>
      </Form>
    </main>
  )
}

/** What the complaint is about: one select, its options grouped by kind in the order of the kinds. */
function SubjectField({
  subjects,
  chosen,
  error: subjectError,
}: {
  subjects: ComplaintSubject[]
  chosen: string
  error: string | undefined
}) {
  const { t } = useTranslation('complaints')
  const groups = Map.groupBy(subjects, (s) => s.kind)
  return (
    <div className="field">
      <label htmlFor="field-subject">{t('add.subject')}</label>
      <select
        id="field-subject"
        name="subject"
        required
        defaultValue={chosen}
        aria-invalid={subjectError ? true : undefined}
        aria-describedby={subjectError ? 'field-subject-error' : undefined}
      >
        <option value="">{t('add.choose')}</option>
        {[...groups].map(([kind, items]) =>
          kind === 'platform' ? (
            <option key="platform" value="platform">
              {t('kinds.platform')}
            </option>
          ) : (
            <optgroup key={kind} label={t(`kinds.${kind}`)}>
              {items.map((s) => (
                <option key={valueOf(s)} value={valueOf(s)}>
                  {s.label}
                </option>
              ))}
            </optgroup>
          ),
        )}
      </select>
      <FieldError id="field-subject-error" error={subjectError} />
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
