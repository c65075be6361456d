import { data, Link, redirect } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import { schemaConstraint } from '~/lib/schema-constraint.server'
import type { Route } from './+types/register'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { titled } from '~/lib/meta'
import { Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import type { FieldReply } from '~/components/ui/field'
import { replyFields, useReplyForm } from '~/components/ui/reply-form'
import { ReplyPostForm } from '~/components/auth/form'
import type { FormConstraint } from '~/lib/form-constraint'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'
import { deliverableInput, transmittalInput } from '#server/modules/projects/deliverables/schemas.ts'
import { revisionSchemes } from '#server/modules/projects/deliverables/rules.ts'
import { issueMany, refusedReply } from './register.server'
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
import { IssueManyForm, IssueManyLinks } from './register-issue'

// /projects/register/{projectId}: the contract's deliverables register (issue 40, decision 318),
// for its two parties. A table with one row per deliverable: its installment, every revision
// issued (newest first, each linked to its transmittal) with the client's answer and files. The
// freelancer adds deliverables here and, with `?issue={installmentId}`, issues several of an
// installment's at once under one transmittal; one alone, or an answer, on a deliverable's page.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const bounded = (v: string | null, max: number) => Math.max(0, Math.min(max, Math.trunc(Number(v)) || 0))
  try {
    const api = apiFor(context)
    const issue = bounded(url.searchParams.get('issue'), 2 ** 31 - 1)
    const [register, issuing] = await Promise.all([
      api.call(d.register, {
        params: { projectId },
        query: { page: Math.max(1, bounded(url.searchParams.get('page'), 10_000)) },
      }),
      issue
        ? api.call(d.register, {
            params: { projectId },
            query: { page: 1, pageSize: 100, installmentId: issue },
          })
        : null,
    ])
    const words = wordsFor(getLocale(context))
    for (const x of register.data) wordIssues(words, x.issues)
    return {
      register,
      words: words.words,
      issuing: issuing ? { installmentId: issue, deliverables: issuing.data } : null,
      added: url.searchParams.get('added'),
      url: url.pathname + url.search,
      // The forms' limits as data: the browser's code has no schema (issue 38).
      constraint: { add: schemaConstraint(deliverableInput), issue: schemaConstraint(transmittalInput) },
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.register.projectTitle)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const form = await request.formData()
  if (form.get('intent') === 'issue') return issueMany(context, projectId, form)
  const submission = parseWithZod(form, { schema: deliverableInput })
  if (submission.status !== 'success') return data({ add: submission.reply() as FieldReply }, { status: 400 })
  try {
    const added = await apiFor(context).call(d.add, { params: { projectId }, body: submission.value })
    return redirect(`/projects/register/${projectId}?added=${encodeURIComponent(added.number)}#register`)
  } catch (error) {
    return refusedReply(error, (o) => submission.reply(o), { key: 'add' })
  }
}

type Replies = { add?: FieldReply; issue?: FieldReply } | undefined

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('deliverables')
  const { register: r, added, url, issuing, constraint } = loaderData
  const replies = actionData as Replies
  const issuable = r.role === 'freelancer' && r.contractStatus === 'active'
  const back =
    r.role === 'client'
      ? `/projects/client/details/${r.projectId}`
      : `/projects/freelancer/contract/${r.projectId}`
  return (
    <main id="main" className="container page">
      <h1>
        {t('page.register')}: {r.projectTitle}
      </h1>
      {added ? <Notice kind="success">{t('page.added', { number: added })}</Notice> : null}
      <ButtonGroup label={t('page.actions')}>
        <ButtonLink to={back}>{t('page.backToContract')}</ButtonLink>
        {issuable && r.total ? <IssueManyLinks installments={r.installments} /> : null}
      </ButtonGroup>
      <p className="muted">
        {r.scheme ? t(`scheme.${r.scheme}`) : t('page.noScheme')} ·{' '}
        <StatusChip machine="contract" state={r.contractStatus} />
      </p>
      <section aria-labelledby="register" className="ui-section">
        <h2 id="register">{t('page.deliverables')}</h2>
        {r.data.length ? (
          <DataTable
            caption={t('page.register')}
            captionHidden
            columns={[
              { label: t('page.number') },
              { label: t('page.title') },
              { label: t('page.discipline') },
              { label: t('page.installment') },
              { label: t('page.revisions') },
            ]}
            rows={r.data.map((x) => ({
              key: x.id,
              testId: `deliverable-${x.number}`,
              cells: [
                <Link key="n" to={`/projects/deliverable/${x.id}`}>
                  {x.number}
                </Link>,
                x.title,
                x.discipline,
                <span key="i">
                  {x.installment.title} <StatusChip machine="installment" state={x.installment.status} />
                </span>,
                <History key="h" issues={x.issues} />,
              ],
            }))}
          />
        ) : null}
        <Pagination url={url} page={r.page} pageSize={r.pageSize} total={r.total} />
        {r.total ? null : (
          <EmptyState title={t('page.empty')}>
            {r.role === 'freelancer' ? t('page.emptyFreelancer') : null}
          </EmptyState>
        )}
      </section>
      {issuable && issuing ? (
        <IssueManyForm
          installment={r.installments.find((i) => i.id === issuing.installmentId)}
          deliverables={issuing.deliverables}
          reply={replies?.issue}
          constraint={constraint.issue}
        />
      ) : null}
      {issuable ? <AddForm register={r} reply={replies?.add} constraint={constraint.add} /> : null}
    </main>
  )
}

/** Every revision of a deliverable, newest first, with its answer and files. */
function History({ issues }: { issues: IssueView[] }) {
  const { t } = useTranslation('deliverables')
  if (!issues.length) return <span className="muted">{t('page.notIssued')}</span>
  return (
    <ol className="file-list">
      {issues.map((i) => (
        <li key={i.id}>
          <IssueLine issue={i} /> <AnswerChip answer={i.answer} />
          <IssueFiles files={i.files} />
        </li>
      ))}
    </ol>
  )
}

type RegisterData = Route.ComponentProps['loaderData']['register']

function AddForm({
  register: r,
  reply,
  constraint,
}: {
  register: RegisterData
  reply?: FieldReply
  constraint: FormConstraint
}) {
  const { t } = useTranslation('deliverables')
  const form = useReplyForm(reply, 'add')
  const fields = replyFields(reply, 'add', {}, constraint)
  const open = r.installments.filter((i) => !['approved', 'released', 'removed'].includes(i.status))
  return (
    <section aria-labelledby="add" className="ui-section">
      <h2 id="add">{t('page.add')}</h2>
      <ReplyPostForm form={form} id="add-deliverable" intent="add">
        <TextInput field={fields.number!} label={t('page.number')} />
        <TextInput field={fields.title!} label={t('page.title')} />
        <TextInput field={fields.discipline!} label={t('page.discipline')} />
        <SelectField
          field={fields.installmentId!}
          label={t('page.installment')}
          options={open.map((i) => ({ value: String(i.id), label: i.title }))}
        />
        {r.scheme ? null : (
          <SelectField
            field={fields.scheme!}
            label={t('page.scheme')}
            options={revisionSchemes.map((s) => ({ value: s, label: t(`scheme.${s}`) }))}
          />
        )}
        <Button type="submit" variant="primary">
          {t('page.addSubmit')}
        </Button>
      </ReplyPostForm>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
