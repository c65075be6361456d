import { useTranslation } from '~/lib/translations'
import { ActionForm } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { Notice } from '~/components/ui/notice'
import type { Tone } from '~/components/ui/tones'

// Payment Details' payout account (decision 333): its status as the gateway reports it, and the
// one button that opens (or continues) the gateway's hosted onboarding. A plain form post: the
// action answers a redirect to the gateway's page, so it works without JavaScript.
export type PayoutAccountStatus = 'not_set_up' | 'incomplete' | 'enabled'
export interface PayoutAccountView {
  gateway: string
  status: PayoutAccountStatus
  masked: string | null
  detailsSubmitted: boolean
}

const tones: Record<PayoutAccountStatus, Tone> = {
  not_set_up: 'neutral',
  incomplete: 'progress',
  enabled: 'success',
}

export function PayoutAccountCard({
  account,
  returned,
}: {
  account: PayoutAccountView
  /** how the browser came back from the gateway's page, if it did */
  returned: 'return' | 'refresh' | null
}) {
  const { t } = useTranslation('stripe')
  const gateway = account.gateway === 'stripe' ? 'stripe' : 'sandbox'
  return (
    <Card
      as="section"
      level={2}
      title={t('title')}
      titleId="payout-account"
      data-testid="payout-account"
      status={
        <Chip tone={tones[account.status]} data-status={account.status} data-testid="payout-account-status">
          {t(`status.${account.status}`)}
        </Chip>
      }
    >
      <p className="muted">{t(`lead.${gateway}`)}</p>
      {returned === 'refresh' ? (
        <Notice kind="warning">{t('returned.refresh')}</Notice>
      ) : returned === 'return' && account.status !== 'enabled' ? (
        <Notice kind="info">
          {t(account.detailsSubmitted ? 'returned.checking' : 'returned.unfinished')}
        </Notice>
      ) : null}
      <p>
        {t(`explain.${account.status}`)}
        {account.masked ? (
          <>
            {' '}
            <span className="masked">{account.masked}</span>
          </>
        ) : null}
      </p>
      {account.status === 'enabled' ? null : (
        <ActionForm
          intent="onboard"
          variant="primary"
          label={t(account.status === 'not_set_up' ? 'setUp' : 'continue')}
        />
      )}
    </Card>
  )
}
