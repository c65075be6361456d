import { data, Form, redirect } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { schemaConstraint } from '~/lib/schema-constraint.server'
import type { Route } from './+types/deliverable'
import { apiFor } from '~/lib/api.server'
import { postMultipart } from '~/lib/api-form.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import type { FieldReply } from '~/components/ui/field'
import { Notice } from '~/components/ui/notice'
import { replyFields, useReplyForm } from '~/components/ui/reply-form'
import { FormErrors, ReplyPostForm } from '~/components/auth/form'
import type { FormConstraint } from '~/lib/form-constraint'
import { StatusChip } from '~/components/ui/status-chip'
import { Timeline } from '~/components/ui/timeline'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'
import { answerInput, issueInput } from '#server/modules/projects/deliverables/schemas.ts'
import { issueStatuses, outcomes } from '#server/modules/projects/deliverables/rules.ts'
import { refusedReply } from './register.server'
import {
  AnswerChip,
  IssueFiles,
  IssueLine,
  SelectField,
  TextInput,
  wordIssues,
  type IssueView,
} from './register-ui'
import { wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'

// /projects/deliverable/{deliverableId}: one deliverable of a contract's register, its revision
// history, and the one form its reader may use: the freelancer's issue form (the next revision,
// a status, a note and files, posted as multipart) or the client's answer to the latest issue.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const deliverable = await apiFor(context).call(d.deliverable, {
      params: { deliverableId: Number(params.deliverableId) },
    })
    const words = wordsFor(getLocale(context))
    wordIssues(words, deliverable.issues)
    // The history's timeline shows each issue's time as well.
    for (const i of deliverable.issues) words.date(i.issuedAt, 'dateTime')
    return {
      deliverable,
      words: words.words,
      done: url.searchParams.get('done'),
      // The forms' limits as data: the browser's code has no schema (issue 38).
      constraint: { issue: schemaConstraint(issueInput), answer: schemaConstraint(answerInput) },
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData ? `${loaderData.deliverable.number} ${loaderData.deliverable.title}` : null)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const deliverableId = Number(params.deliverableId)
  const form = await request.formData()
  const back = (done: string) => redirect(`/projects/deliverable/${deliverableId}?done=${done}`)
  if (form.get('intent') === 'answer') {
    const submission = parseWithZod(form, { schema: answerInput })
    if (submission.status !== 'success')
      return data({ reply: submission.reply() as FieldReply }, { status: 400 })
    try {
      await apiFor(context).call(d.answer, {
        params: { issueId: Number(form.get('issueId')) },
        body: submission.value,
      })
      return back('answered')
    } catch (error) {
      return refusedReply(error, (o) => submission.reply(o))
    }
  }
  const submission = parseWithZod(form, { schema: issueInput })
  if (submission.status !== 'success')
    return data({ reply: submission.reply() as FieldReply }, { status: 400 })
  const upload = new FormData()
  for (const [k, v] of Object.entries(submission.value)) upload.append(k, String(v))
  for (const f of form.getAll('files'))
    if (f instanceof File && f.name && f.size > 0) upload.append('files', f, f.name)
  try {
    await postMultipart(context, `projects/deliverables/${deliverableId}/issues`, upload)
    return back('issued')
  } catch (error) {
    return refusedReply(error, (o) => submission.reply(o))
  }
}

export default function DeliverablePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('deliverables')
  const { deliverable: x, done, constraint } = loaderData
  const { role, projectId } = x
  const reply = actionData?.reply
  const latest = x.issues[0] as IssueView | undefined
  return (
    <main id="main" className="container page">
      <h1>
        {x.number} {x.title}
      </h1>
      {done ? <Notice kind="success">{t(`page.done.${done}`, { defaultValue: '' })}</Notice> : null}
      <Card>
        <p>
          {x.discipline} · {x.installment.title}{' '}
          <StatusChip machine="installment" state={x.installment.status} />
        </p>
      </Card>
      <ButtonGroup label={t('page.actions')}>
        <ButtonLink to={`/projects/register/${projectId}`}>{t('page.backToRegister')}</ButtonLink>
      </ButtonGroup>
      <section aria-labelledby="history" className="ui-section">
        <h2 id="history">{t('page.history')}</h2>
        <Timeline
          empty={t('page.notIssued')}
          events={x.issues.map((i) => ({
            id: i.id,
            at: i.issuedAt,
            text: (
              <div data-testid={`issue-${i.revision}`}>
                <IssueLine issue={i} /> <AnswerChip answer={i.answer} />
                <p>{i.note}</p>
                <IssueFiles files={i.files} />
                {i.answer?.comment ? <p className="muted">{i.answer.comment}</p> : null}
              </div>
            ),
          }))}
        />
      </section>
      {role === 'freelancer' && x.nextRevisions.length ? (
        <IssueForm next={x.nextRevisions} reply={reply} constraint={constraint.issue} />
      ) : null}
      {role === 'client' && latest && !latest.answer ? (
        <AnswerForm issue={latest} reply={reply} constraint={constraint.answer} />
      ) : null}
    </main>
  )
}

type FormProps = { reply?: FieldReply | null; constraint: FormConstraint }

function IssueForm({ next, reply, constraint }: FormProps & { next: string[] }) {
  const { t } = useTranslation('deliverables')
  const form = useReplyForm(reply, 'issue')
  const fields = replyFields(reply, 'issue', {}, constraint)
  return (
    <section aria-labelledby="issue" className="ui-section">
      <h2 id="issue">{t('page.issue')}</h2>
      <Form
        method="post"
        encType="multipart/form-data"
        id="issue-form"
        ref={form.ref}
        key={form.key}
        className="form-stack"
        noValidate
      >
        <input type="hidden" name="intent" value="issue" />
        <FormErrors errors={form.errors} id="issue-form-error" />
        <SelectField
          field={fields.revision!}
          label={t('page.revision')}
          options={next.map((r) => ({ value: r, label: r }))}
        />
        <SelectField
          field={fields.status!}
          label={t('page.status')}
          options={issueStatuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <TextInput field={fields.note!} label={t('page.note')} rows={4} />
        <div className="field">
          <label htmlFor="issue-files">{t('page.files')}</label>
          <input id="issue-files" type="file" name="files" multiple />
        </div>
        <Button type="submit" variant="primary">
          {t('page.issueSubmit')}
        </Button>
      </Form>
    </section>
  )
}

function AnswerForm({ issue, reply, constraint }: FormProps & { issue: IssueView }) {
  const { t } = useTranslation('deliverables')
  const form = useReplyForm(reply, 'answer')
  const fields = replyFields(reply, 'answer', {}, constraint)
  return (
    <section aria-labelledby="answer" className="ui-section">
      <h2 id="answer">{t('page.answer', { revision: issue.revision })}</h2>
      <ReplyPostForm form={form} id="answer-form" intent="answer">
        <input type="hidden" name="issueId" value={issue.id} />
        <SelectField
          field={fields.outcome!}
          label={t('page.outcome')}
          options={outcomes.map((o) => ({ value: o, label: t(`outcome.${o}`) }))}
        />
        <TextInput field={fields.comment!} label={t('page.comment')} rows={4} />
        <Button type="submit" variant="primary">
          {t('page.answerSubmit')}
        </Button>
      </ReplyPostForm>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
