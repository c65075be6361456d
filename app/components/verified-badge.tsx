import { useTranslation } from '~/lib/translations'
import { Chip } from './ui/status-chip'

// The marks of trust (decision 332): a freelancer's or a company's checked identity, and a
// client's payment that went through. One look wherever they show: profiles, proposals, search.
export function VerifiedBadge() {
  const { t } = useTranslation('ui')
  return (
    <Chip tone="success" data-testid="verified-badge">
      {t('verified.badge')}
    </Chip>
  )
}

export function PaymentVerifiedBadge() {
  const { t } = useTranslation('ui')
  return (
    <Chip tone="success" data-testid="payment-verified">
      {t('verified.paymentVerified')}
    </Chip>
  )
}
