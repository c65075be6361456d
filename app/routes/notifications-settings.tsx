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
import { PushDevice } from '~/components/push-device'
import { notificationsContract as c } from '#server/modules/notifications/contract.ts'
import { channelsOf, preferenceKinds } from '#server/modules/notifications/preferences.ts'
import { deviceLabel } from '#server/modules/notifications/device-label.ts'

// /notifications/settings (issue 42 item 1, decision 329): each kind of notice, in the site, by
// email and by push (decision 337), as checkboxes of one plain form; saving comes back here with a
// note, with or without JavaScript. Push on this device needs JavaScript (PushDevice). The
// newsletter (decision 340) is one of the kinds, with its one channel: email.
export async function loader({ context, url }: Route.LoaderArgs) {
  requireUser(context, url)
  try {
    const api = apiFor(context)
    const [{ preferences }, { publicKey }] = await Promise.all([api.call(c.preferences), api.call(c.pushKey)])
    return {
      preferences,
      publicKey,
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

/** This browser's subscription, sent by PushDevice: stored or removed; a refusal is told to the device's box. */
async function pushIntent(context: Route.ActionArgs['context'], request: Request, form: FormData) {
  const endpoint = String(form.get('endpoint') ?? '')
  try {
    if (form.get('intent') === 'push-off')
      await apiFor(context).call(c.pushUnsubscribe, { body: { endpoint } })
    else
      await apiFor(context).call(c.pushSubscribe, {
        body: {
          endpoint,
          keys: { p256dh: String(form.get('p256dh') ?? ''), auth: String(form.get('auth') ?? '') },
          label: deviceLabel(request.headers.get('user-agent')),
        },
      })
    return { pushFailed: false }
  } catch {
    return { pushFailed: true }
  }
}

// A checkbox left unticked is not sent: every kind is sent with its channels as the boxes stand.
export async function action({ request, context, url }: Route.ActionArgs) {
  requireUser(context, url)
  const form = await request.formData()
  if (String(form.get('intent')).startsWith('push-')) return pushIntent(context, request, form)
  const preferences = preferenceKinds.map((kind) => ({
    kind,
    site: form.has(`${kind}.site`),
    email: form.has(`${kind}.email`),
    push: form.has(`${kind}.push`),
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
  const { preferences, saved, publicKey } = loaderData
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
                {channelsOf(p.kind).map((channel) => (
                  <label key={channel} className="checkbox">
                    <input
                      type="checkbox"
                      name={`${p.kind}.${channel}`}
                      defaultChecked={p[channel]}
                      aria-label={t(`settings.${channel}Of`, { kind })}
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
      <PushDevice publicKey={publicKey} />
      <p>
        <Link to="/notifications">{t('page.title')}</Link>
      </p>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
