import { Form, Link, redirect } from 'react-router'
import type { Route } from './+types/notifications-settings'
import { useTranslation } from '~/lib/translations'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { getInstance } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'
import { titled } from '~/lib/meta'
import { notificationsContract as c } from '#server/modules/notifications/contract.ts'
import { noticeChannels, noticeKinds } from '#server/modules/notifications/preferences.ts'

// /notifications/settings (issue 42 item 1, decision 329): each kind of notice, in the site and by
// email, as checkboxes of one plain form; saving comes back here with a note, with or without JavaScript.
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const { preferences } = await apiFor(context).call(c.preferences)
    return {
      preferences,
      saved: url.searchParams.has('saved'),
      title: getInstance(context).t('notifications:settings.title'),
    }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// A checkbox left unticked is not sent: every kind is sent with both channels as the boxes stand.
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  const preferences = noticeKinds.map((kind) => ({
    kind,
    site: form.has(`${kind}.site`),
    email: form.has(`${kind}.email`),
  }))
  try {
    await apiFor(context).call(c.setPreferences, { body: { preferences } })
  } catch (error) {
    throwApiError(error)
  }
  return redirect('/notifications/settings?saved=1')
}

export default function NotificationSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('notifications')
  const { preferences, saved } = loaderData
  return (
    <main id="main" className="container page narrow">
      <h1>{t('settings.title')}</h1>
      <p className="lead">{t('settings.intro')}</p>
      {saved ? <Notice kind="success">{t('settings.saved')}</Notice> : null}
      <Form method="post" className="notice-settings" data-testid="notice-settings">
        {preferences.map((p) => {
          const kind = t(`settings.kinds.${p.kind}.label`)
          return (
            <fieldset key={p.kind} className="notice-kind" aria-describedby={`hint-${p.kind}`}>
              <legend>{kind}</legend>
              <p id={`hint-${p.kind}`} className="muted">
                {t(`settings.kinds.${p.kind}.hint`)}
              </p>
              <div className="notice-channels">
                {noticeChannels.map((channel) => (
                  <label key={channel} className="checkbox">
                    <input
                      type="checkbox"
                      name={`${p.kind}.${channel}`}
                      defaultChecked={p[channel]}
                      aria-label={t(channel === 'site' ? 'settings.siteOf' : 'settings.emailOf', { kind })}
                    />{' '}
                    {t(`settings.${channel}`)}
                  </label>
                ))}
              </div>
            </fieldset>
          )
        })}
        <p className="muted">{t('settings.always')}</p>
        <Button variant="primary">{t('settings.save')}</Button>
      </Form>
      <p>
        <Link to="/notifications">{t('page.title')}</Link>
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
