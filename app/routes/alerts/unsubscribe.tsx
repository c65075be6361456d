import { data, Form } from 'react-router'
import type { Route } from './+types/unsubscribe'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { getInstance } from '~/middleware/i18next'
import { titled } from '~/lib/meta'
import { useTranslation } from '~/lib/translations'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { alertsContract } from '#server/modules/alerts/contract.ts'

// The link in every job alert digest: opening it changes nothing (mail scanners follow links);
// pressing the page's one button stops that saved search's emails, without signing in and with or
// without JavaScript. A link that was tampered with (400), or used already, changes nothing and says
// so. The same address is the digest's List-Unsubscribe: a mail client's one-click POST (RFC 8058,
// decision 340) is this button's press.
export const loader = ({ context }: Route.LoaderArgs) => ({
  title: getInstance(context).t('alerts:unsubscribe.title'),
})

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ params, context }: Route.ActionArgs) {
  try {
    const answer = await apiFor(context, { token: null }).call(alertsContract.unsubscribe, {
      body: { token: params.token },
    })
    return { outcome: answer.outcome, name: answer.name }
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 400)
      return data({ outcome: 'invalid' as const, name: '' }, { status: 400 })
    throw error
  }
}

export default function Unsubscribe({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation('alerts')
  return (
    <main id="main" className="container page narrow">
      <h1>{t('unsubscribe.title')}</h1>
      {actionData?.outcome === 'unsubscribed' ? (
        <Notice kind="success" data-testid="unsubscribe-outcome">
          {t('unsubscribe.done', { name: actionData.name })}
        </Notice>
      ) : actionData ? (
        <Notice kind="error" data-testid="unsubscribe-outcome">
          {t(actionData.outcome === 'already' ? 'unsubscribe.already' : 'unsubscribe.invalid')}
        </Notice>
      ) : (
        <>
          <p>{t('unsubscribe.body')}</p>
          <Form method="post">
            <Button variant="primary">{t('unsubscribe.button')}</Button>
          </Form>
        </>
      )}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
