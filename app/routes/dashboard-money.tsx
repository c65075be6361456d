import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Wording } from '~/lib/words'
import { DefinitionList } from '~/components/ui/definition-list'
import { Money } from './projects/ui'

/** Money held for the client's contracts, or the freelancer's available, earned and paid-out money, per currency (read from the ledger). */
export type Balances = Array<{
  currency: string
  heldMinor: number
  availableMinor: number
  earnedMinor: number
  paidOutMinor: number
}>

/** The amounts `MoneyCard` shows, for the dashboard's loader to word (`~/lib/words`, decision 362). */
export function wordMoneyCard(words: Wording, money: Balances) {
  for (const m of money)
    for (const minor of [m.heldMinor, m.availableMinor, m.earnedMinor, m.paidOutMinor])
      words.money(minor, m.currency)
}

/** The balances, each in its currency. */
export function MoneyCard({ money, freelancer }: { money: Balances; freelancer: boolean }) {
  const { t } = useTranslation(['payments', 'payouts'])
  return (
    <section className="card dashboard-card" aria-labelledby="dash-money" data-testid="dashboard-money">
      <h2 id="dash-money">{t('money.title')}</h2>
      {money.length ? (
        money.map((m) => (
          <DefinitionList
            key={m.currency}
            items={
              freelancer
                ? [
                    [t('money.available'), <Money key="a" minor={m.availableMinor} currency={m.currency} />],
                    [t('money.earned'), <Money key="e" minor={m.earnedMinor} currency={m.currency} />],
                    [
                      t('payouts:dashboard.paidOut'),
                      <Money key="p" minor={m.paidOutMinor} currency={m.currency} />,
                    ],
                  ]
                : [[t('money.held'), <Money key="h" minor={m.heldMinor} currency={m.currency} />]]
            }
          />
        ))
      ) : (
        <p className="muted">{t('money.none')}</p>
      )}
      {freelancer ? <Link to="/payouts">{t('payouts:dashboard.withdraw')}</Link> : null}
    </section>
  )
}
