import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import type { Route } from './+types/new'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { readCategoryTree } from '~/lib/catalogue.server'
import { requirePermission } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { offerInput, offersContract as c } from '#server/modules/projects/offers/contract.ts'
import { profilesContract } from '#server/modules/profiles/contract.ts'
import { OfferForm } from './offer-form'

// /offers/new?freelancerId=: a client makes a direct offer to one freelancer (decision 342), from
// their profile, a Find Freelancers card or the saved freelancers. One schema with the API.

export async function loader({ context, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'freelancers.find')
  const freelancerId = Number(url.searchParams.get('freelancerId'))
  if (!Number.isSafeInteger(freelancerId) || freelancerId <= 0) throw redirect('/auth/not-found')
  try {
    const [{ data: tree }, profile] = await Promise.all([
      readCategoryTree(context),
      apiFor(context).call(profilesContract.freelancerPublic, { params: { id: freelancerId } }),
    ])
    const name = profile.name
    return {
      tree,
      name,
      freelancerId,
      constraint: getZodConstraint(offerInput),
      title: getInstance(context).t('projects:offers.newTitle', { name }),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'freelancers.find')
  const submission = parseWithZod(await request.formData(), { schema: offerInput })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  try {
    const made = await apiFor(context).call(c.create, { body: submission.value })
    return redirect(`/offers/${made.id}?sent=1`)
  } catch (error) {
    // The form's fields are the API's: its refusals (a client's own account, the same offer twice) show on them.
    if (
      error instanceof ApiCallError &&
      typeof error.problem === 'object' &&
      [400, 409].includes(error.status)
    )
      return data(
        error.problem.errors
          ? submission.reply({ fieldErrors: error.problem.errors })
          : submission.reply({ formErrors: [error.problem.detail] }),
        { status: error.status },
      )
    throwApiError(error)
  }
}

export default function NewOffer({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('projects')
  return (
    <main id="main" className="container page narrow">
      <h1>{t('offers.newTitle', { name: loaderData.name })}</h1>
      <p className="lead">{t('offers.newLead')}</p>
      <OfferForm
        tree={loaderData.tree}
        constraint={loaderData.constraint}
        lastResult={actionData}
        defaultValue={{
          freelancerId: String(loaderData.freelancerId),
          budgetType: 'fixed',
          currency: 'EUR',
          expiresInDays: '7',
        }}
      />
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
