import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/timesheets'
import { apiFor, isThrownAnswer } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requireUser } from '~/lib/session.server'
import { useWords, wordsFor } from '~/lib/words'
import { getLocale } from '~/middleware/i18next'
import { ErrorPage } from '~/components/error-page'
import { ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DefinitionList } from '~/components/ui/definition-list'
import { Notice } from '~/components/ui/notice'
import type { FieldReply } from '~/components/ui/field'
import { titled } from '~/lib/meta'
import { timesheetsContract as ts, type TimesheetOut } from '#server/modules/projects/timesheets/contract.ts'
import { addDays } from '#server/modules/projects/timesheets/rules.ts'
import { timesheetAction } from './timesheets.server'
import { Decision, Entries, EntryForm, Hours, PastWeeks, WeekChip, wordTimesheet } from './timesheets-ui'
import { ActionButton } from './ui'

// /projects/timesheets/{projectId}?week=YYYY-MM-DD: an hourly contract's weekly timesheet (issue 40
// item 3, decision 324) for its two parties. The freelancer logs time, changes it while the week is
// open and submits it; the client approves the week (behind a confirmation step: it becomes money
// owed) or disputes it; both see every week and the installment it became. Plain POSTs only.
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requireUser(context, url)
  const projectId = Number(params.projectId)
  const week = url.searchParams.get('week')
  try {
    const sheet = await apiFor(context).call(ts.show, {
      params: { projectId },
      query: week && /^\d{4}-\d{2}-\d{2}$/.test(week) ? { week } : {},
    })
    const words = wordsFor(getLocale(context))
    wordTimesheet(words, sheet)
    return { projectId, sheet, words: words.words, done: url.searchParams.get('done') }
  } catch (error) {
    if (isThrownAnswer(error)) throw error
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.sheet.projectTitle)
}

export async function action({ request, context, params, url }: Route.ActionArgs) {
  requireUser(context, url)
  return timesheetAction(context, Number(params.projectId), await request.formData())
}

type Result = ({ notice?: string; formId?: string } & Record<string, unknown>) | undefined

export default function TimesheetPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('timesheets')
  const { projectId, sheet, done } = loaderData
  const result = actionData as Result
  const replies = (result ?? {}) as Record<string, FieldReply | undefined>
  const contractPage =
    sheet.role === 'client'
      ? `/projects/client/details/${projectId}`
      : `/projects/freelancer/contract/${projectId}`
  return (
    <main id="main" className="container page project-details">
      <h1>
        {t('title')}: {sheet.projectTitle}
      </h1>
      <p>{t(`intro.${sheet.role}`, { days: sheet.reviewDays })}</p>
      {done ? (
        <Notice kind="success" data-testid="timesheet-notice">
          {t(`done.${done}`, { defaultValue: '' })}
        </Notice>
      ) : null}
      {result?.notice ? (
        <Notice kind="error">{t(result.notice, { defaultValue: result.notice })}</Notice>
      ) : null}
      <Terms sheet={sheet} />
      <p>
        <ButtonLink to={contractPage}>{t('back')}</ButtonLink>
      </p>
      <WeekCard sheet={sheet} replies={replies} />
      {sheet.week.canEdit ? (
        <Card as="section" title={t('form.title')} titleId="log-time" level={2}>
          <EntryForm sheet={sheet} reply={replies.entry} />
        </Card>
      ) : null}
      <section aria-labelledby="weeks" className="ui-section">
        <h2 id="weeks">{t('past.title')}</h2>
        <PastWeeks sheet={sheet} />
      </section>
    </main>
  )
}

function Terms({ sheet }: { sheet: TimesheetOut }) {
  const { t } = useTranslation('timesheets')
  const words = useWords()
  return (
    <DefinitionList
      items={[
        [t('terms.rate'), t('terms.perHour', { amount: words.money(sheet.hourlyRateMinor, sheet.currency) })],
        [
          t('terms.limit'),
          sheet.weeklyLimitHours ? <Hours hours={sheet.weeklyLimitHours} /> : t('terms.noLimit'),
        ],
        [t('terms.review'), t('terms.days', { count: sheet.reviewDays })],
      ]}
    />
  )
}

/** The chosen week: its state, total against the limit, cost, entries and the moves open to the reader. */
function WeekCard({
  sheet,
  replies,
}: {
  sheet: TimesheetOut
  replies: Record<string, FieldReply | undefined>
}) {
  const { t } = useTranslation('timesheets')
  const { week, currency } = sheet
  const words = useWords()
  const day = (d: string) => words.date(d)
  const money = (minor: number) => words.money(minor, currency)
  const today = new Date().toISOString().slice(0, 10)
  const next = addDays(week.weekStart, 7)
  return (
    <Card
      as="section"
      id="week"
      level={2}
      title={t('week.heading', { start: day(week.weekStart), end: day(week.weekEnd) })}
      titleId="week-title"
      status={<WeekChip state={week.status} />}
      data-testid="week"
    >
      <nav aria-label={t('week.nav')}>
        <ButtonGroup>
          <ButtonLink to={`?week=${addDays(week.weekStart, -7)}#week`}>{t('week.previous')}</ButtonLink>
          <ButtonLink to="?#week">{t('week.current')}</ButtonLink>
          {next <= today ? <ButtonLink to={`?week=${next}#week`}>{t('week.next')}</ButtonLink> : null}
        </ButtonGroup>
      </nav>
      <DefinitionList
        items={[
          [
            t('week.total'),
            <>
              <Hours hours={week.hours} />
              {sheet.weeklyLimitHours ? <> {t('week.ofLimit', { limit: sheet.weeklyLimitHours })}</> : null}
            </>,
          ],
          [t('week.amount'), money(week.amountMinor)],
          sheet.role === 'client'
            ? [t('week.withFee'), money(week.amountMinor + week.clientFeeMinor)]
            : ['', ''],
          [t('week.reviewDue'), week.reviewDueAt ? day(week.reviewDueAt) : ''],
          [t('week.payment'), week.installmentStatus ? t(`installment.${week.installmentStatus}`) : ''],
        ]}
      />
      {week.status === 'disputed' && week.disputeReason ? (
        <Notice kind="error">{t('week.disputed', { reason: week.disputeReason })}</Notice>
      ) : null}
      {week.autoApproved ? <p className="muted small">{t('week.autoApproved')}</p> : null}
      <Entries sheet={sheet} replies={replies} />
      <WeekMoves sheet={sheet} reply={replies.dispute} />
    </Card>
  )
}

function WeekMoves({ sheet, reply }: { sheet: TimesheetOut; reply?: FieldReply }) {
  const { t } = useTranslation('timesheets')
  const { week, projectId } = sheet
  if (week.canSubmit)
    return (
      <>
        <p className="muted small">{t('submit.hint')}</p>
        <ActionButton
          intent="submit"
          variant="primary"
          fields={{ weekId: week.id!, week: week.weekStart }}
          label={t('submit.button')}
        />
      </>
    )
  if (week.canDecide) return <Decision sheet={sheet} reply={reply} />
  if (sheet.role === 'client' && week.installmentId && week.installmentStatus === 'pending')
    return (
      <>
        <p>{t('pay.hint')}</p>
        <ButtonLink
          variant="primary"
          to={`/projects/client/pay/${projectId}?installment=${week.installmentId}`}
        >
          {t('pay.link')}
        </ButtonLink>
      </>
    )
  return null
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
