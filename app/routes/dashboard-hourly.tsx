import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import type { Dashboard as DashboardData } from '#server/modules/dashboard/contract.ts'
import { ButtonLink } from '~/components/ui/button'

// An hourly contract's card on the dashboard (decision 334): its rate and this week's hours of the
// weekly limit instead of installment progress, and the timesheet's step when no week waits to be
// paid (a week to pay is the card's usual "fund" step).
type Contract = DashboardData['contracts']['items'][number]
type Hourly = NonNullable<Contract['hourly']>

/** The rate and the open week an hourly card shows, for the dashboard's loader to word (`~/lib/words`). */
export function wordHourlyCard(words: Wording, h: Hourly) {
  words.money(h.rateMinor, h.currency)
  if (h.openWeek) words.date(h.openWeek.weekStart)
}

/** "€45.00 an hour · this week 12.5 h of 20 h" */
export function HourlyCardTerms({ hourly: h }: { hourly: Hourly }) {
  const { t } = useTranslation('dashboard')
  const rate = useWords().money(h.rateMinor, h.currency)
  return (
    <span className="muted small" data-testid="dash-hourly">
      {h.weeklyLimitHours
        ? t('contracts.hourly.terms', { rate, hours: h.thisWeekHours, limit: h.weeklyLimitHours })
        : t('contracts.hourly.termsNoLimit', { rate, hours: h.thisWeekHours })}
    </span>
  )
}

/** The timesheet's step: whose move the earliest open week waits for (or logging time when none is open). */
export function HourlyCardStep({ c, hourly: h }: { c: Contract; hourly: Hourly }) {
  const { t } = useTranslation('dashboard')
  const words = useWords()
  const status = h.openWeek?.status ?? 'none'
  const params = { name: c.other.name, week: h.openWeek ? words.date(h.openWeek.weekStart) : '' }
  const href = `/projects/timesheets/${c.projectId}${h.openWeek ? `?week=${h.openWeek.weekStart}` : ''}#week`
  return (
    <>
      <p className="dashboard-step">
        {c.yourTurn ? (
          <strong>{t(`contracts.hourly.you.${status}`, params)}</strong>
        ) : (
          t(`contracts.hourly.wait.${status}`, params)
        )}
      </p>
      {c.yourTurn ? (
        <ButtonLink variant="primary" to={href}>
          {t('contracts.hourly.do')}
        </ButtonLink>
      ) : null}
    </>
  )
}
