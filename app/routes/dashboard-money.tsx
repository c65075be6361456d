import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { formatMoney } from '~/lib/format'
import { DefinitionList } from '~/components/ui/definition-list'
import { Money } from './projects/ui'

// The dashboard's money: its amounts are worded by the loader (decision 362), since the browser's
// first Intl.NumberFormat for a currency costs some 25 ms of the main thread while the page hydrates.

/** Amounts by `amountKey`, worded by the server. */
export function wordedAmounts(lng: string, amounts: Array<{ minor: number; currency: string }>) {
  return Object.fromEntries(
    amounts.map((a) => [amountKey(a.minor, a.currency), formatMoney(a.minor, a.currency, lng)]),
  )
}
const amountKey = (minor: number, currency: string) => `${minor} ${currency}`
export type Amounts = Record<string, string>

/** Money held for the client's contracts, or the freelancer's available, earned and paid-out money, per currency (read from the ledger). */
export function MoneyCard({
  money,
  freelancer,
  amounts,
}: {
  money: Array<{
    currency: string
    heldMinor: number
    availableMinor: number
    earnedMinor: number
    paidOutMinor: number
  }>
  freelancer: boolean
  amounts: Amounts
}) {
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
                    [
                      t('money.available'),
                      <Amount key="a" minor={m.availableMinor} currency={m.currency} amounts={amounts} />,
                    ],
                    [
                      t('money.earned'),
                      <Amount key="e" minor={m.earnedMinor} currency={m.currency} amounts={amounts} />,
                    ],
                    [
                      t('payouts:dashboard.paidOut'),
                      <Amount key="p" minor={m.paidOutMinor} currency={m.currency} amounts={amounts} />,
                    ],
                  ]
                : [
                    [
                      t('money.held'),
                      <Amount key="h" minor={m.heldMinor} currency={m.currency} amounts={amounts} />,
                    ],
                  ]
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

/** An amount as the loader worded it (formatted here only if it did not). */
export function Amount({ minor, currency, amounts }: { minor: number; currency: string; amounts: Amounts }) {
  return <Money minor={minor} currency={currency} text={amounts[amountKey(minor, currency)]} />
}
