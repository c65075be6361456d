import { data, Form, Link, redirect } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
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
import { TextField } from '~/components/ui/field'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { StatusChip } from '~/components/ui/status-chip'
import { deliverablesContract as d } from '#server/modules/projects/deliverables/contract.ts'
import { deliverableInput } from '#server/modules/projects/deliverables/schemas.ts'
import { revisionSchemes } from '#server/modules/projects/deliverables/rules.ts'
import { refusedReply } from './register.server'
import { AnswerChip, IssueFiles, IssueLine, SelectField, type IssueView } from './register-ui'

// /projects/register/{projectId}: the contract's deliverables register (issue 40, decision 318),
// for its two parties. A table with one row per deliverable: its installment, every revision
// issued (newest first, each linked to its transmittal) with the client's answer and files. The
// freelancer adds deliverables here; issuing and answering happen on a deliverable's page.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const page = Math.max(1, Math.min(10_000, Math.trunc(Number(url.searchParams.get('page'))) || 1))
    const register = await apiFor(context).call(d.register, {
      params: { projectId: Number(params.projectId) },
      query: { page },
    })
    return { register, added: url.searchParams.get('added'), url: url.pathname + url.search }
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
  const submission = parseWithZod(form, { schema: deliverableInput })
  if (submission.status !== 'success') return data({ reply: submission.reply() }, { status: 400 })
  try {
    const added = await apiFor(context).call(d.add, { params: { projectId }, body: submission.value })
    return redirect(`/projects/register/${projectId}?added=${encodeURIComponent(added.number)}#register`)
  } catch (error) {
    return refusedReply(error, (o) => submission.reply(o))
  }
}

export default function RegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('deliverables')
  const { register: r, added, url } = loaderData
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
      {r.role === 'freelancer' && r.contractStatus === 'active' ? (
        <AddForm register={r} reply={actionData?.reply} />
      ) : null}
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
}: {
  register: RegisterData
  reply?: Parameters<typeof TextField>[0]['reply']
}) {
  const { t } = useTranslation('deliverables')
  const open = r.installments.filter((i) => i.status !== 'approved' && i.status !== 'released')
  const formError = reply?.error?.['']?.[0]
  return (
    <section aria-labelledby="add" className="ui-section">
      <h2 id="add">{t('page.add')}</h2>
      {formError ? <Notice kind="error">{t(formError, { defaultValue: formError })}</Notice> : null}
      <Form method="post" className="form-stack" noValidate>
        <TextField
          name="number"
          label={t('page.number')}
          ns="deliverables"
          reply={reply}
          required
          maxLength={40}
        />
        <TextField
          name="title"
          label={t('page.title')}
          ns="deliverables"
          reply={reply}
          required
          maxLength={200}
        />
        <TextField
          name="discipline"
          label={t('page.discipline')}
          ns="deliverables"
          reply={reply}
          required
          maxLength={60}
        />
        <SelectField
          form="add"
          name="installmentId"
          label={t('page.installment')}
          reply={reply}
          options={open.map((i) => ({ value: String(i.id), label: i.title }))}
        />
        {r.scheme ? null : (
          <SelectField
            form="add"
            name="scheme"
            label={t('page.scheme')}
            reply={reply}
            options={revisionSchemes.map((s) => ({ value: s, label: t(`scheme.${s}`) }))}
          />
        )}
        <Button type="submit" variant="primary">
          {t('page.addSubmit')}
        </Button>
      </Form>
    </section>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
