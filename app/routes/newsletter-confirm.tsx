import { Form } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import type { Route } from './+types/newsletter-confirm'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { contentContract, newsletterToken } from '../../server/modules/content/contract'
import { titled } from '~/lib/meta'

// The link in the newsletter's confirmation mail (double opt-in, decision 092). Opening it shows
// one button, so a mail scanner that follows links cannot subscribe anyone; pressing it starts the
// subscription, with or without JavaScript. The link works once.
export function loader({ params, context }: Route.LoaderArgs) {
  return { valid: newsletterToken.test(params.token), title: getInstance(context).t('content:newsletter.confirmTitle') }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ params, context }: Route.ActionArgs) {
  const t = getInstance(context).t
  if (!newsletterToken.test(params.token)) return { invalid: true }
  try {
    await apiFor(context, { token: null }).call(contentContract.confirmSubscription, { params: { token: params.token } })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 404 || error.status === 400)) return { invalid: true }
    throw error
  }
  return redirectWithFlash('/', { kind: 'success', message: t('content:newsletter.confirmed') })
}

export default function ConfirmSubscription({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const invalid = !loaderData.valid || actionData?.invalid
  return (
    <main id="main" className="container page narrow">
      <h1>{t('newsletter.confirmTitle')}</h1>
      {invalid ? (
        <p className="notice notice-error" role="alert">
          {t('newsletter.confirmInvalid')}
        </p>
      ) : (
        <>
          <p>{t('newsletter.confirmBody')}</p>
          <Form method="post">
            <button type="submit" className="button button-primary">
              {t('newsletter.confirmButton')}
            </button>
          </Form>
        </>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
