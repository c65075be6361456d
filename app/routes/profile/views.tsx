import { useTranslation } from '~/lib/translations'
import { DefinitionList } from '~/components/ui/definition-list'
import { formatMoney } from '~/lib/format'

// What a section of /profile shows while its form is closed (decision 312): what the profile
// holds, read-only, or a hint that there is nothing yet.

type Fact = [label: React.ReactNode, value: React.ReactNode]
const present = (value: unknown) => value !== null && value !== undefined && value !== ''

/** Label over value, as on the public profile; a section with none of them says it is empty. */
export function Facts({ items }: { items: Fact[] }) {
  const { t } = useTranslation('profile')
  return items.some(([, v]) => present(v)) ? (
    <DefinitionList items={items} />
  ) : (
    <p className="hint">{t('page.empty')}</p>
  )
}

/** Texts written by the owner (a title, an overview, a description), kept with their line breaks. */
export function Texts({ items }: { items: Array<{ label?: string; text: string; lead?: boolean }> }) {
  const { t } = useTranslation('profile')
  const shown = items.filter((item) => item.text.trim())
  if (!shown.length) return <p className="hint">{t('page.empty')}</p>
  return (
    <>
      {shown.map((item, n) => (
        <div key={n}>
          {item.label ? <h3>{item.label}</h3> : null}
          <p className={item.lead ? 'lead pre-line' : 'pre-line'}>{item.text}</p>
        </div>
      ))}
    </>
  )
}

/** An hourly rate in the page's language, or nothing. */
export function useRate() {
  const { i18n } = useTranslation('profile')
  return (rate: { amountMinor: number; currency: string } | null) =>
    rate ? formatMoney(rate.amountMinor, rate.currency, i18n.language) : null
}
