import { useTranslation } from 'react-i18next'
import type { Route } from './+types/create'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { saveProject } from './actions.server'
import { ProjectForm } from './project-form'
import { titled } from '~/lib/meta'
import { readCategoryTree } from '~/lib/catalogue.server'

// /projects/create: a multipart form (the attachment rides along) that saves a draft or publishes.
export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'projects.create')
  try {
    const { data: tree } = await readCategoryTree(context)
    return { tree, title: getInstance(context).t('projects:create.title') }
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
        lastResult={actionData}
        defaultValue={{ currency: 'EUR', budgetType: 'fixed', remote: 'true' }}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
