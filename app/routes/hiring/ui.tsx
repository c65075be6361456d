import type React from 'react'
import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import { Chip } from '~/components/ui/status-chip'
import type { Tone } from '~/components/ui/tones'
import { DefinitionList } from '~/components/ui/definition-list'
import { Card } from '~/components/ui/card'

// Pieces shared by the client's and support's pages of a hiring request (decision 338).
/** The request's id in the address, or the not-found page. */
export function requestIdOf(params: { requestId?: string }) {
  const id = Number(params.requestId)
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw new Response('Not Found', { status: 404 })
  return id
}

const tones: Record<string, Tone> = {
  open: 'progress',
  claimed: 'info',
  proposed: 'success',
  done: 'neutral',
  cancelled: 'danger',
}

export function HiringChip({ state }: { state: string }) {
  const { t } = useTranslation('shortlist')
  return (
    <Chip tone={tones[state] ?? 'neutral'} data-status={state} data-testid="hiring-state">
      {t(`hiring.state.${state}`)}
    </Chip>
  )
}

interface Budgeted {
  budgetMinMinor: number
  budgetMaxMinor: number
  currency: string
}

/** For a loader: words a request's budget and days as its card and facts show them. */
export function wordRequest(words: Wording, r: Budgeted & { deadline: string; createdAt?: string }) {
  words.moneyRange(r.budgetMinMinor, r.budgetMaxMinor, r.currency)
  for (const day of [r.deadline, r.createdAt]) if (day) words.date(day)
}

/** A request in a list (the client's, support's queue): its number linking to `to`, state, budget, need. */
export function RequestCard({
  request: r,
  to,
  children,
}: {
  request: Budgeted & { id: number; state: string; deadline: string; need: string }
  to: string
  children?: React.ReactNode
}) {
  const { t } = useTranslation('shortlist')
  const words = useWords()
  return (
    <Card
      as="li"
      level={2}
      data-testid="hiring-request"
      titleId={`hiring-${r.id}`}
      title={<Link to={to}>{t('hiring.list.item', { id: r.id })}</Link>}
      status={<HiringChip state={r.state} />}
      meta={t('hiring.list.budgetLine', {
        budget: words.moneyRange(r.budgetMinMinor, r.budgetMaxMinor, r.currency),
        deadline: words.date(r.deadline),
      })}
    >
      <p>{r.need.length > 200 ? `${r.need.slice(0, 200)}…` : r.need}</p>
      {children}
    </Card>
  )
}

/** A request's facts: budget, deadline, project (a link for its client), and when it was asked. */
export function RequestFacts({
  request: r,
  projectLink,
}: {
  request: Budgeted & {
    deadline: string
    createdAt: string
    project: { id: number; title: string } | null
  }
  projectLink?: boolean
}) {
  const { t } = useTranslation('shortlist')
  const words = useWords()
  return (
    <DefinitionList
      items={[
        [t('hiring.detail.budget'), words.moneyRange(r.budgetMinMinor, r.budgetMaxMinor, r.currency)],
        [t('hiring.detail.deadline'), words.date(r.deadline)],
        [
          t('hiring.detail.project'),
          r.project ? (
            projectLink ? (
              <Link to={`/projects/client/details/${r.project.id}`}>{r.project.title}</Link>
            ) : (
              r.project.title
            )
          ) : null,
        ],
        [t('hiring.detail.created'), words.date(r.createdAt)],
      ]}
    />
  )
}
