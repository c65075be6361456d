import { useTranslation } from '~/lib/translations'
import { ActionForm } from '~/components/ui/button'

/** Save or unsave a freelancer (a plain POST to the page, which comes back to the same URL); `describedBy` names them. */
export function SaveFreelancerButton({
  userId,
  saved,
  action,
  describedBy,
}: {
  userId: number
  saved: boolean
  action?: string
  describedBy: string
}) {
  const { t } = useTranslation('shortlist')
  return (
    <ActionForm
      intent={saved ? 'unfavourite' : 'favourite'}
      fields={{ userId }}
      action={action}
      label={saved ? t('favourites.unsave') : t('favourites.save')}
      describedBy={describedBy}
    />
  )
}
