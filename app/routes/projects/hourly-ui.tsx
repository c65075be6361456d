import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import { useWords, type Wording } from '~/lib/words'
import { Money } from './ui'

// An hourly contract's terms (issue 40 item 3, decision 323), where a fixed-price contract shows its
// price and installments: the contract page of each party and the list of contracts. Their texts
// are the `hourly` namespace, so pages without hourly contracts (Create Project) do not download them.

export interface ContractTermsData {
  amountMinor: number
  currency: string
  billing: 'fixed' | 'hourly'
  hourlyRateMinor: number | null
  weeklyLimitHours: number | null
}

/** The amounts a contract's terms show (`HourlyTerms`, or a fixed price), for its page's loader to word (`~/lib/words`). */
export function wordTerms(words: Wording, contract: ContractTermsData) {
  words.money(contract.amountMinor, contract.currency)
  if (contract.billing === 'hourly') words.money(contract.hourlyRateMinor ?? 0, contract.currency)
}

/** The facts of an hourly contract: paid by the hour, at its rate, within its weekly limit, and what was charged so far. */
export function HourlyTerms({ contract, note = false }: { contract: ContractTermsData; note?: boolean }) {
  const { t } = useTranslation('hourly')
  return (
    <div data-testid="hourly-terms">
      <DefinitionList
        items={[
          [t('contract.billing'), t('contract.hourly')],
          [
            t('contract.rate'),
            <Money key="r" minor={contract.hourlyRateMinor ?? 0} currency={contract.currency} />,
          ],
          [
            t('contract.weeklyLimit'),
            contract.weeklyLimitHours ? t('contract.upTo', { count: contract.weeklyLimitHours }) : '—',
          ],
          [
            t('contract.billedSoFar'),
            <Money key="b" minor={contract.amountMinor} currency={contract.currency} />,
          ],
        ]}
      />
      {note ? <p className="muted small">{t('contract.note')}</p> : null}
    </div>
  )
}

/**
 * Why the client cannot mark the project completed yet: the earliest week of the timesheet that is
 * not settled, and the way to it (decision 334). Shown where the button would be.
 */
export function OpenWeekNotice({
  projectId,
  openWeek,
}: {
  projectId: number
  openWeek: { weekStart: string; status: 'open' | 'submitted' | 'disputed' | 'unpaid' }
}) {
  const { t } = useTranslation('hourly')
  const week = useWords().date(openWeek.weekStart)
  return (
    <Notice kind="info" data-testid="open-week">
      {t(`openWeek.${openWeek.status}`, { week })}{' '}
      <Link to={`/projects/timesheets/${projectId}?week=${openWeek.weekStart}#week`}>
        {t('openWeek.link')}
      </Link>
    </Notice>
  )
}
