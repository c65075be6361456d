import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { Button } from '~/components/ui/button'
import { Notice } from '~/components/ui/notice'

// Push on this device (decision 337): the browser subscribes with the site's VAPID key and the
// page's action stores the subscription. The server renders the "needs JavaScript" note; once the
// page runs, it says what this browser can do and offers the one button that fits.
type State = 'needsJs' | 'unsupported' | 'denied' | 'off' | 'on' | 'failed' | 'busy'

const keyBytes = (base64url: string) =>
  Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

async function currentSubscription() {
  const registration = await navigator.serviceWorker.register('/sw.js')
  return { registration, subscription: await registration.pushManager.getSubscription() }
}

function usePushState() {
  const [state, setState] = useState<State>('needsJs')
  useEffect(() => {
    if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
      return setState('unsupported')
    if (Notification.permission === 'denied') return setState('denied')
    currentSubscription().then(
      ({ subscription }) => setState(subscription ? 'on' : 'off'),
      () => setState('unsupported'),
    )
  }, [])
  return [state, setState] as const
}

export function PushDevice({ publicKey }: { publicKey: string }) {
  const { t } = useTranslation('notifications')
  const fetcher = useFetcher<{ pushFailed?: boolean }>()
  const [state, setState] = usePushState()

  async function turnOn() {
    setState('busy')
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('denied')
      const { registration } = await currentSubscription()
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      })
      const { endpoint = '', keys = {} } = subscription.toJSON()
      await fetcher.submit(
        { intent: 'push-on', endpoint, p256dh: keys.p256dh ?? '', auth: keys.auth ?? '' },
        { method: 'post' },
      )
      setState('on')
    } catch {
      setState('failed')
    }
  }

  async function turnOff() {
    setState('busy')
    try {
      const { subscription } = await currentSubscription()
      if (subscription) {
        await fetcher.submit({ intent: 'push-off', endpoint: subscription.endpoint }, { method: 'post' })
        await subscription.unsubscribe()
      }
      setState('off')
    } catch {
      setState('failed')
    }
  }

  const shown = fetcher.data?.pushFailed ? 'failed' : state
  return (
    <section className="push-device" aria-labelledby="push-device-title" data-testid="push-device">
      <h2 id="push-device-title">{t('settings.device.title')}</h2>
      <p className="muted">{t('settings.device.intro')}</p>
      {shown === 'busy' ? null : (
        <Notice kind={shown === 'failed' || shown === 'denied' ? 'warning' : 'info'}>
          {t(`settings.device.${shown}`)}
        </Notice>
      )}
      {shown === 'on' ? (
        <Button type="button" onClick={turnOff}>
          {t('settings.device.turnOff')}
        </Button>
      ) : shown === 'off' || shown === 'failed' || shown === 'busy' ? (
        <Button type="button" variant="primary" onClick={turnOn} disabled={shown === 'busy'}>
          {t('settings.device.turnOn')}
        </Button>
      ) : null}
    </section>
  )
}
