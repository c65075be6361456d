import { useTranslation } from '~/lib/translations'
import { Chip } from '~/components/ui/status-chip'
import type { Tone } from '~/components/ui/tones'

// An invitation's state (decision 335) in the design system's chip: waiting on the freelancer,
// accepted, or declined. Invitations have no state machine of the projects', so their words live
// in the projects' texts.
const tones: Record<string, Tone> = { pending: 'progress', accepted: 'success', declined: 'danger' }

export function InvitationChip({ state }: { state: string }) {
  const { t } = useTranslation('projects')
  return (
    <Chip tone={tones[state] ?? 'neutral'} data-status={state} data-testid="invitation-state">
      {t(`invitations.state.${state}`)}
    </Chip>
  )
}
