import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import { DefinitionList } from '~/components/ui/definition-list'
import { Money, PlanList, wordPlan } from './ui'

// A proposal's terms (its bid, duration, letter and plan), apart from ui.tsx so that pages without
// proposals (Create Project) do not download them.

/** A bid: its price, or on an hourly project its rate and hours ("€45.00 / hour, up to 20 h a week"). */
export function Bid({ p }: { p: { bidMinor: number; currency: string; weeklyHours?: number | null } }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  if (p.weeklyHours == null) return <Money minor={p.bidMinor} currency={p.currency} />
  const rate = words.money(p.bidMinor, p.currency)
  return <span data-testid="hourly-bid">{t('budget.rateUpTo', { rate, count: p.weeklyHours })}</span>
}

/** The amounts of a proposal's terms (its bid and plan), for its page's loader to word. */
export function wordProposal(
  words: Wording,
  p: { bidMinor: number; currency: string; installments: ReadonlyArray<{ amountMinor: number }> },
) {
  words.money(p.bidMinor, p.currency)
  wordPlan(words, p.installments, p.currency)
}

/** A proposal's terms as both sides read them: bid and duration, which revision, the cover letter and the installment plan. */
export function ProposalTerms({
  proposal,
}: {
  proposal: {
    bidMinor: number
    currency: string
    durationDays: number
    weeklyHours?: number | null
    revision: number
    coverLetter: string
    installments: Array<{ title: string; amountMinor: number; dueDate?: string }>
  }
}) {
  const { t } = useTranslation('projects')
  return (
    <>
      <DefinitionList
        items={[
          [proposal.weeklyHours == null ? t('details.bid') : t('details.rate'), <Bid key="m" p={proposal} />],
          [t('details.duration'), t('list.days', { count: proposal.durationDays })],
        ]}
      />
      {proposal.revision > 1 ? (
        <p className="muted small">{t('client.revised', { n: proposal.revision })}</p>
      ) : null}
      <p className="prewrap">{proposal.coverLetter}</p>
      <PlanList items={proposal.installments} currency={proposal.currency} />
    </>
  )
}
