import { data, Form, Link } from 'react-router'
import type { Route } from './+types/emails-stop'
import { useTranslation } from '~/lib/translations'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { titled } from '~/lib/meta'
import { emailOffParams, notificationsContract as c } from '#server/modules/notifications/contract.ts'

// The link at the foot of a notice mail (decision 329): opening it shows one button, so a mail
// scanner that follows links changes nothing; pressing it stops that kind's mails, without signing
// in. A tampered link says so, answers 400 and changes nothing. The same address is the mail's
// List-Unsubscribe: a mail client's one-click POST (body `List-Unsubscribe=One-Click`, RFC 8058,
// decision 340) is this button's press, so it needs no branch of its own.
export function loader({ context, params }: Route.LoaderArgs) {
  const link = emailOffParams.safeParse(params)
  const t = getInstance(context).t
  const kind = link.success ? t(`notifications:settings.kinds.${link.data.kind}.label`) : ''
  return { valid: link.success, kind, title: t('notifications:emailOff.title', { kind }) }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title, { name: 'robots', content: 'noindex' })
}

export async function action({ context, params }: Route.ActionArgs) {
  const link = emailOffParams.safeParse(params)
  const refused = () => data({ done: false }, { status: 400 })
  if (!link.success) return refused()
  try {
    await apiFor(context, { token: null }).call(c.emailOff, { params: link.data })
  } catch (error) {
    if (error instanceof ApiCallError && error.status === 400) return refused()
    throw error
  }
  return { done: true }
}

export default function EmailOff({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications')
  const { valid, kind } = loaderData
  const refused = !valid || actionData?.done === false
  return (
    <main id="main" className="container page narrow">
      <h1>{valid ? t('emailOff.title', { kind }) : t('settings.title')}</h1>
      {refused ? (
        <Notice kind="error">{t('emailOff.invalid')}</Notice>
      ) : actionData?.done ? (
        <Notice kind="success">{t('emailOff.done', { kind })}</Notice>
      ) : (
        <>
          <p>{t('emailOff.body', { kind })}</p>
          <Form method="post">
            <Button variant="primary">{t('emailOff.button')}</Button>
          </Form>
        </>
      )}
      <p>
        <Link to="/notifications/settings">{t('emailOff.settings')}</Link>
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
