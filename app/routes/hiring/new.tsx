import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/new'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { replyWithApiError } from '~/lib/auth-actions.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { FormErrors } from '~/components/auth/form'
import { Button, ButtonGroup } from '~/components/ui/button'
import { TextField } from '~/components/ui/field'
import { FilterSelect } from '~/components/ui/filter-select'
import { formErrors } from '~/components/ui/reply-form'
import { hiringContract as c, hiringRequestInput } from '#server/modules/hiring/contract.ts'
import { projectsContract } from '#server/modules/projects/contract.ts'
import { currencies } from '#server/modules/projects/rules.ts'

// /hiring/new: a client or a company asks support to find the freelancer: the need, a budget (one
// amount, or a range), the day to hire by and, if they like, one of their open projects
// (`?projectId=` preselects it). One schema with the API (decision 338); a plain form.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const projects = await apiFor(context).call(projectsContract.myProjects, {
    query: { status: 'open', page: 1, pageSize: 50 },
  })
  return {
    projects: projects.data.map((p) => ({ value: p.id, label: p.title })),
    projectId: url.searchParams.get('projectId') ?? '',
    title: getInstance(context).t('shortlist:hiring.new.title'),
  }
}

const fields = ['need', 'budgetMinMinor', 'budgetMaxMinor', 'currency', 'deadline', 'projectId']

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'freelancers.find')
  const submission = parseWithZod(await request.formData(), { schema: hiringRequestInput })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const made = await apiFor(context).call(c.create, { body: submission.value })
    return redirect(`/hiring/${made.id}`)
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 409)
      return data(
        { result: submission.reply({ formErrors: ['shortlist:hiring.errors.limit'] }) },
        { status: 409 },
      )
    const reply = replyWithApiError(submission, error, fields)
    return data({ result: reply.data }, reply.init ?? undefined)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export default function NewHiringRequest({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['shortlist', 'projects'])
  const reply = actionData?.result
  const kept = (name: string) => {
    const v = reply?.initialValue?.[name]
    return typeof v === 'string' ? v : undefined
  }
  const projectError = reply?.error?.projectId?.[0]
  return (
    <main id="main" className="container page narrow">
      <h1>{t('hiring.new.title')}</h1>
      <p>{t('hiring.lead')}</p>
      <Form method="post" id="hiring-request" noValidate className="form-stack">
        <FormErrors errors={formErrors(reply)} id="hiring-request-error" />
        <TextField name="need" label={t('hiring.field.need')} ns="hiring" reply={reply} multiline required />
        <TextField
          name="budgetMinMinor"
          label={t('hiring.field.budgetMin')}
          ns="hiring"
          reply={reply}
          required
        />
        <TextField name="budgetMaxMinor" label={t('hiring.field.budgetMax')} ns="hiring" reply={reply} />
        <FilterSelect
          name="currency"
          label={t('hiring.field.currency')}
          value={kept('currency') ?? 'EUR'}
          options={currencies.map((v) => ({ value: v, label: v }))}
        />
        <TextField
          name="deadline"
          type="date"
          label={t('hiring.field.deadline')}
          ns="hiring"
          reply={reply}
          required
        />
        <FilterSelect
          name="projectId"
          label={t('hiring.field.project')}
          value={kept('projectId') ?? loaderData.projectId}
          any={t('hiring.field.noProject')}
          options={loaderData.projects}
        />
        {projectError ? <p className="field-error">{t(projectError)}</p> : null}
        <ButtonGroup>
          <Button variant="primary">{t('hiring.new.send')}</Button>
          <Link to="/hiring">{t('hiring.new.back')}</Link>
        </ButtonGroup>
      </Form>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
