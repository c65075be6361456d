import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import type { InvitationOut } from '#server/modules/projects/invitations/contract.ts'
import { Card } from '~/components/ui/card'
import { Person } from '~/components/ui/person'
import { useWords } from '~/lib/words'
import { InvitationChip } from './invitation-chip'

// The client's project page: who is invited and how each answered (decision 335), and who sees the
// project. Invitations are sent from a freelancer's profile or their card in Find Freelancers.
export function InvitationsSent({
  invitations,
  visibility,
  open,
}: {
  invitations: InvitationOut[]
  visibility: string
  open: boolean
}) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return (
    <section aria-labelledby="invitations" className="ui-section">
      <h2 id="invitations">{t('invitations.sent', { count: invitations.length })}</h2>
      <p className="muted" data-testid="visibility">
        {t(`visibility.shown.${visibility}`)}
      </p>
      {open ? (
        <p>
          <Link to="/freelancers">{t('invitations.findToInvite')}</Link>
        </p>
      ) : null}
      {invitations.map((inv) => (
        <Card key={inv.id} data-testid="sent-invitation">
          <header className="ui-card-header">
            <Person
              name={inv.freelancer.name}
              imageUrl={inv.freelancer.imageUrl}
              href={`/profiles/freelancers/${inv.freelancer.id}`}
            />
            <InvitationChip state={inv.status} />
          </header>
          <p className="muted small">{words.date(inv.createdAt, 'dateTime')}</p>
          {inv.declineReason ? (
            <p className="prewrap">{t('invitations.theirReason', { reason: inv.declineReason })}</p>
          ) : null}
        </Card>
      ))}
    </section>
  )
}
