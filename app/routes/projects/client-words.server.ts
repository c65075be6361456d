import type { ResultOf } from '#server/api/contract.ts'
import type { projectsContract as c } from '#server/modules/projects/contract.ts'
import type { InvitationOut } from '#server/modules/projects/invitations/contract.ts'
import type { Wording } from '~/lib/words'
import { wordRefunds } from '../payments/refunds'
import { wordTerms } from './hourly-ui'
import { wordActivity, wordInstallments } from './installments'
import { wordReceivedProposal } from './received-proposal'
import { wordBudget } from './ui'

type Details = ResultOf<typeof c.detailsForClient>
type Revisions = Record<number, Parameters<typeof wordReceivedProposal>[2]>

/**
 * The amounts, dates and ratings the client's project page shows at start, for its loader to word
 * (decision 370): the budget, the contract and its installments, the refunds, each proposal and its
 * earlier versions, the invitations and the activity.
 */
export function wordClientProject(
  words: Wording,
  view: Details,
  more: {
    revisions: Revisions
    refunds: Parameters<typeof wordRefunds>[1] | null
    invitations: readonly InvitationOut[]
  },
) {
  const { project: p, contract } = view
  wordBudget(words, p)
  if (contract) {
    wordTerms(words, contract)
    wordInstallments(words, contract.installments)
    if (contract.hourly?.openWeek) words.date(contract.hourly.openWeek.weekStart)
    if (more.refunds) wordRefunds(words, more.refunds, contract.currency)
  }
  for (const pr of view.proposals) wordReceivedProposal(words, pr, more.revisions[pr.id] ?? [])
  for (const inv of more.invitations) words.date(inv.createdAt, 'dateTime')
  wordActivity(words, view.activity)
}
