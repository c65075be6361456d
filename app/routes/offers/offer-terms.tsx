import { useTranslation } from '~/lib/translations'
import { ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { DataTable } from '~/components/ui/data-table'
import { DefinitionList } from '~/components/ui/definition-list'
import type { Tone } from '~/components/ui/tones'
import { useWords, type Wording } from '~/lib/words'
import type { OfferOut } from '#server/modules/projects/offers/contract.ts'

// A direct offer's state and terms (decision 342), as its two parties read them. Offers have no
// state machine of the projects', so their chip's tones and words live here, beside their pages.

const tones: Record<string, Tone> = {
  pending: 'progress',
  accepted: 'success',
  declined: 'danger',
  withdrawn: 'neutral',
  expired: 'neutral',
}

export function OfferChip({ state }: { state: string }) {
  const { t } = useTranslation('projects')
  return (
    <Chip tone={tones[state] ?? 'neutral'} data-status={state} data-testid="offer-state">
      {t(`offers.state.${state}`)}
    </Chip>
  )
}

/** An offer's price, times and (with `terms`) installments, for its page's loader to word. */
export function wordOffer(words: Wording, o: OfferOut, terms = false) {
  words.money(o.budgetMinor, o.currency)
  for (const at of [o.expiresAt, o.decidedAt]) if (at) words.date(at, 'dateTime')
  if (terms)
    for (const i of o.installments) {
      words.money(i.amountMinor, o.currency)
      if (i.dueDate) words.date(i.dueDate)
    }
}

/** The price as a sentence: a fixed total, or a rate with its weekly limit. */
export function usePrice(o: Pick<OfferOut, 'budgetType' | 'budgetMinor' | 'currency' | 'weeklyHours'>) {
  const { t } = useTranslation('projects')
  const amount = useWords().money(o.budgetMinor, o.currency)
  return o.budgetType === 'hourly'
    ? t('offers.hourlyPrice', { amount, hours: o.weeklyHours ?? 0 })
    : t('offers.fixedPrice', { amount })
}

/** Who offers whom, and until when it stands (or when it was answered). */
export function useOfferLine(o: OfferOut) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const people = t('offers.between', { client: o.client.name, freelancer: o.freelancer.name })
  const when =
    o.status === 'pending'
      ? t('offers.answerBy', { when: words.date(o.expiresAt, 'dateTime') })
      : o.decidedAt
        ? t('offers.answered', { when: words.date(o.decidedAt, 'dateTime') })
        : ''
  return when ? `${people} · ${when}` : people
}

/** The full terms: the work, its category, the price, the duration and the installments. */
export function OfferTerms({ offer: o }: { offer: OfferOut }) {
  const { t } = useTranslation('projects')
  const words = useWords()
  const price = usePrice(o)
  return (
    <Card
      as="section"
      level={2}
      titleId="offer-terms"
      title={t('offers.terms')}
      status={<OfferChip state={o.status} />}
      meta={useOfferLine(o)}
      data-testid="offer"
    >
      <p className="prewrap">{o.description}</p>
      <DefinitionList
        items={[
          [t('fields.subcategory'), o.subcategory?.name],
          [t('offers.price'), price],
          [t('fields.durationDays'), o.durationDays],
        ]}
      />
      {o.installments.length ? (
        <DataTable
          caption={t('create.plan')}
          columns={[
            { label: t('offers.installment') },
            { label: t('offers.due') },
            { label: t('offers.amount'), numeric: true },
          ]}
          rows={o.installments.map((i, n) => ({
            key: n,
            testId: 'offer-installment',
            cells: [i.title, i.dueDate ? words.date(i.dueDate) : '', words.money(i.amountMinor, o.currency)],
          }))}
        />
      ) : null}
      {o.message ? (
        <>
          <h3>{t('offers.messageFrom', { name: o.client.name })}</h3>
          <p className="prewrap">{o.message}</p>
        </>
      ) : null}
      {o.declineReason ? <p className="muted">{t('offers.reason', { reason: o.declineReason })}</p> : null}
    </Card>
  )
}

/** The contract an accepted offer started, on the reader's side. */
export function ContractLink({ offer: o, side }: { offer: OfferOut; side: 'client' | 'freelancer' }) {
  const { t } = useTranslation('projects')
  if (o.status !== 'accepted') return null
  const to =
    side === 'freelancer'
      ? `/projects/freelancer/contract/${o.projectId}`
      : `/projects/client/details/${o.projectId}`
  return (
    <p>
      <ButtonLink to={to} variant="primary" data-testid="offer-contract">
        {t('offers.openContract')}
      </ButtonLink>
    </p>
  )
}
