import { useTranslation } from '~/lib/translations'
import { data, Link } from 'react-router'
import type { Route } from './+types/confirm-email'
import { ApiCallError, apiFor } from '~/lib/api.server'
import { getInstance } from '~/middleware/i18next'
import { Notice } from '~/components/auth/notices'
import { identityContract } from '#server/modules/identity/contract.ts'
import { titled } from '~/lib/meta'

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

// The link from the change-of-address mail: the same answers as the verification page.
export async function loader({ context, url }: Route.LoaderArgs) {
  const title = getInstance(context).t('auth:confirmEmail.title')
  try {
    const { message } = await apiFor(context, { token: null }).call(identityContract.confirmEmailChange, {
      query: { token: url.searchParams.get('token') ?? '' },
    })
    return { ok: true as const, message, title }
  } catch (error) {
    if (!(error instanceof ApiCallError) || error.status >= 500) throw error
    return data({ ok: false as const, message: '', title }, { status: 400 })
  }
}

export default function ConfirmEmail({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('auth')
  return (
    <main id="main" className="container page narrow auth-page">
      <h1>{t('confirmEmail.title')}</h1>
      {loaderData.ok ? (
        <Notice kind="success">{loaderData.message}</Notice>
      ) : (
        <Notice kind="error" title={t('verify.invalidTitle')}>
          {t('verify.invalid')}
        </Notice>
      )}
      <p>
        <Link to="/profile/account-settings">{t('menu.accountSettings')}</Link>
      </p>
    </main>
  )
}
