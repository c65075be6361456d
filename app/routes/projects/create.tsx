import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/create'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { saveProject } from './actions.server'
import { ProjectForm } from './project-form'
import { titled } from '~/lib/meta'
import { readCategoryTree } from '~/lib/catalogue.server'
import { apiFor } from '~/lib/api.server'
import { getZodConstraint } from '@conform-to/zod/v4'
import { projectInput, projectsContract } from '#server/modules/projects/contract.ts'

// /projects/create: a multipart form (the attachment rides along) that saves a draft or publishes.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'projects.create')
  try {
    const [{ data: tree }, latest] = await Promise.all([
      readCategoryTree(context),
      apiFor(context).call(projectsContract.myProjects, { query: { page: 1, pageSize: 1 } }),
    ])
    // A client who pays in one currency posts in it again: the newest project's is the default.
    const currency = latest.data[0]?.currency ?? 'EUR'
    return {
      tree,
      currency,
      constraint: getZodConstraint(projectInput),
      title: getInstance(context).t('projects:create.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'projects.create')
  return saveProject(context, await request.formData())
}

export default function CreateProject({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  return (
    <main id="main" className="container page narrow">
      <h1>{t('create.title')}</h1>
      <p className="lead">{t('create.lead')}</p>
      <ProjectForm
        tree={loaderData.tree}
        constraint={loaderData.constraint}
        lastResult={actionData}
        defaultValue={{ currency: loaderData.currency, budgetType: 'fixed', remote: 'true' }}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
