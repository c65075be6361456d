import { useTranslation } from '~/lib/translations'
import { redirect } from 'react-router'
import type { Route } from './+types/edit'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { getZodConstraint } from '@conform-to/zod/v4'
import { projectInput, projectsContract as c } from '#server/modules/projects/contract.ts'
import { amountText } from '#server/modules/projects/rules.ts'
import { saveProject } from './actions.server'
import { ProjectForm } from './project-form'
import { titled } from '~/lib/meta'
import { readCategoryTree } from '~/lib/catalogue.server'

// /projects/client/edit/{projectId}: the client edits a draft, or an open project that has no
// proposals yet (later the freelancers' proposals answer what was posted); otherwise back to details.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'projects.create')
  const projectId = Number(params.projectId)
  try {
    const api = apiFor(context)
    const [{ project: p }, { data: tree }] = await Promise.all([
      api.call(c.detailsForClient, { params: { projectId } }),
      readCategoryTree(context),
    ])
    if (!(p.status === 'draft' || (p.status === 'open' && p.proposalCount === 0)))
      throw redirect(`/projects/client/details/${projectId}`)
    const values = {
      title: p.title,
      description: p.description,
      subcategoryId: p.subcategory ? String(p.subcategory.id) : '',
      skillIds: p.skills.map((s) => String(s.id)),
      budgetType: p.budgetType,
      budgetMinor: amountText(p.budgetMinor),
      budgetMinMinor: p.budgetMinMinor === null ? '' : amountText(p.budgetMinMinor),
      hoursPerWeek: p.hoursPerWeek === null ? '' : String(p.hoursPerWeek),
      currency: p.currency,
      durationDays: p.durationDays ? String(p.durationDays) : '',
      deadline: p.deadline ?? '',
      experienceLevel: p.experienceLevel ?? '',
      remote: String(p.remote),
      visibility: p.visibility,
      location: p.location ?? '',
      country: p.country ?? '',
      installments: p.installments.map((i) => ({
        title: i.title,
        amountMinor: amountText(i.amountMinor),
        dueDate: i.dueDate ?? '',
      })),
    }
    return {
      tree,
      values,
      status: p.status as 'draft' | 'open',
      constraint: getZodConstraint(projectInput),
      projectTitle: p.title,
      title: getInstance(context).t('projects:edit.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requirePermission(context, url, 'projects.create')
  return saveProject(context, await request.formData(), Number(params.projectId))
}

export default function EditProject({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  return (
    <main id="main" className="container page narrow">
      <h1>{t('edit.title')}</h1>
      <p className="lead">{t('edit.lead', { title: loaderData.projectTitle })}</p>
      <ProjectForm
        tree={loaderData.tree}
        constraint={loaderData.constraint}
        lastResult={actionData}
        defaultValue={loaderData.values}
        status={loaderData.status}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
