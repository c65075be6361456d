import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'
import { useWords, type Wording } from '~/lib/words'
import type { ResultOf } from '#server/api/contract.ts'
import { limits } from '#server/modules/projects/rules.ts'
import type { projectsContract as c } from '#server/modules/projects/contract.ts'
import { ActionButton, Attachments } from './ui'
import { Bid, ProposalTerms, wordProposal } from './terms-ui'
import { Button, ButtonGroup } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Person } from '~/components/ui/person'
import { StatusChip } from '~/components/ui/status-chip'
import { ShortlistControls } from './shortlist-ui'
import { VerifiedBadge } from '~/components/verified-badge'

type Proposal = ResultOf<typeof c.detailsForClient>['proposals'][number]
type Revision = ResultOf<typeof c.proposalRevisions>['data'][number]

interface ReceivedProposalProps {
  pr: Proposal
  /** Its earlier versions, newest first (none when it was never revised). */
  revisions: Revision[]
  /** Whether the client may answer it now (Accept, Decline, a question in the chat). */
  answerable: boolean
  /** The client's shortlist mark of it (absent: not shortlisted), and a refused note's message. */
  shortlist: { mark: { note: string | null } | undefined; error?: string }
}

/** The rating, amounts and dates a `ReceivedProposal` shows, for its page's loader to word. */
export function wordReceivedProposal(words: Wording, pr: Proposal, revisions: readonly Revision[]) {
  if (pr.freelancer.ratingCount) words.rating(pr.freelancer.rating)
  wordProposal(words, pr)
  for (const r of revisions) {
    words.date(r.createdAt, 'dateTime')
    words.money(r.bidMinor, pr.currency)
  }
}

/**
 * A proposal on the client's project page: who sent it, the terms, the letter, and Accept / Decline
 * while it can be answered; its forms post to the page's own address.
 */
export function ReceivedProposal({ pr, revisions, answerable, shortlist }: ReceivedProposalProps) {
  const { t } = useTranslation('projects')
  return (
    <Card data-testid="proposal" id={`proposal-${pr.id}`}>
      <span className="visually-hidden" id={`proposal-${pr.id}-who`}>
        {pr.freelancer.name}
      </span>
      <header className="ui-card-header">
        <Person
          name={pr.freelancer.name}
          imageUrl={pr.freelancer.imageUrl}
          href={`/profiles/freelancers/${pr.freelancer.id}`}
          subtitle={pr.freelancer.title}
          rating={{ value: pr.freelancer.rating, count: pr.freelancer.ratingCount }}
        />
        {pr.freelancer.verified ? <VerifiedBadge /> : null}
        <StatusChip machine="proposal" state={pr.status} />
      </header>
      <ProposalTerms proposal={pr} />
      <Attachments files={pr.attachments} />
      {pr.rejectReason ? (
        <p className="prewrap muted">{t('proposals.rejectReason', { reason: pr.rejectReason })}</p>
      ) : null}
      {revisions.length ? <Revisions items={revisions} currency={pr.currency} /> : null}
      <ShortlistControls
        proposalId={pr.id}
        mark={shortlist.mark}
        error={shortlist.error}
        describedBy={`proposal-${pr.id}-who`}
      />
      {answerable ? (
        <ButtonGroup label={t('client.proposalActions')}>
          <ActionButton intent="accept" fields={{ id: pr.id }} label={t('client.accept')} variant="primary" />
          <ActionButton
            intent="chat"
            fields={{ id: pr.freelancer.id }}
            label={t('client.chat', { name: pr.freelancer.name })}
          />
          <Form method="post">
            <input type="hidden" name="intent" value="reject" />
            <input type="hidden" name="id" value={pr.id} />
            <span className="field">
              <label htmlFor={`reason-${pr.id}`}>{t('client.rejectReason')}</label>
              <input id={`reason-${pr.id}`} name="reason" maxLength={limits.note} />
            </span>
            <Button variant="destructive">{t('client.reject')}</Button>
          </Form>
        </ButtonGroup>
      ) : null}
    </Card>
  )
}

/** A revised proposal's earlier versions, newest first, folded so the current one stays in front. */
function Revisions({ items, currency }: { items: Revision[]; currency: string }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  return (
    <details className="revisions">
      <summary>{t('client.earlierVersions', { count: items.length })}</summary>
      <ol reversed>
        {items.map((r) => (
          <li key={r.revision} data-testid="proposal-revision">
            <p>
              {t('client.revised', { n: r.revision })} · {words.date(r.createdAt, 'dateTime')} ·{' '}
              <Bid p={{ ...r, currency }} /> · {t('list.days', { count: r.durationDays })}
            </p>
            <p className="prewrap">{r.coverLetter}</p>
          </li>
        ))}
      </ol>
    </details>
  )
}
