import { Form } from 'react-router'
import { useTranslation } from '~/lib/use-translation'
import type { Route } from './+types/newsletter-unsubscribe'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { redirectWithFlash } from '~/lib/flash.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { contentContract, newsletterToken } from '../../server/modules/content/contract'
import { titled } from '~/lib/meta'

// The link in every newsletter mail. Opening it shows one button (so mail scanners that follow
// links do not unsubscribe anyone); pressing it unsubscribes, with or without JavaScript.
const validToken = (token: string) => newsletterToken.test(token)

export function loader({ params, context }: Route.LoaderArgs) {
  return { valid: validToken(params.token), title: getInstance(context).t('content:newsletter.unsubscribeTitle') }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ params, context }: Route.ActionArgs) {
  const t = getInstance(context).t
  if (!validToken(params.token)) return { invalid: true }
  try {
    await apiFor(context, { token: null }).call(contentContract.unsubscribe, { params: { token: params.token } })
  } catch (error) {
    if (error instanceof ApiCallError && (error.status === 404 || error.status === 400)) return { invalid: true }
    throw error
  }
  return redirectWithFlash('/', { kind: 'success', message: t('content:newsletter.unsubscribed') })
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('content')
  const invalid = !loaderData.valid || actionData?.invalid
  return (
    <main id="main" className="container page narrow">
      <h1>{t('newsletter.unsubscribeTitle')}</h1>
      {invalid ? (
        <p className="notice notice-error" role="alert">
          {t('newsletter.invalid')}
        </p>
      ) : (
        <>
          <p>{t('newsletter.unsubscribeBody')}</p>
          <Form method="post">
            <button type="submit" className="button">
              {t('newsletter.unsubscribeButton')}
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
