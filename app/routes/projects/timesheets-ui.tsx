import { Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import { Button, ButtonGroup, buttonClass } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip } from '~/components/ui/status-chip'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import type { FieldReply } from '~/components/ui/field'
import { ReplyPostForm } from '~/components/auth/form'
import { inputProps, useReplyForm } from '~/components/ui/reply-form'
import type { Tone } from '~/components/ui/tones'
import type { TimesheetOut, WeekOut } from '#server/modules/projects/timesheets/contract.ts'
import { timesheetLimits, type WeekState } from '#server/modules/projects/timesheets/rules.ts'
import { ActionButton } from './ui'
import { ErrorText } from '~/components/projects/error-text'

// The timesheet page's parts (decision 324): a week's state, the entry form (to log time or change
// an entry), the entries of the week, and the weeks logged so far with what became of each.

const tones: Record<WeekState, Tone> = {
  open: 'neutral',
  submitted: 'progress',
  disputed: 'danger',
  approved: 'success',
}

export function WeekChip({ state }: { state: WeekState }) {
  const { t } = useTranslation('timesheets')
  return (
    <Chip tone={tones[state]} data-status={state} data-testid="week-status">
      {t(`status.${state}`)}
    </Chip>
  )
}

/** The hours as the reader writes numbers ("12,5" in German). */
export function Hours({ hours }: { hours: number }) {
  const { t } = useTranslation('timesheets')
  return <>{t('hoursValue', { hours: useWords().number(hours) })}</>
}

type Sheet = TimesheetOut

/** For the page's loader: the rate, hours, amounts and days the timesheet page shows. */
export function wordTimesheet(words: Wording, sheet: Sheet) {
  const { week, currency } = sheet
  words.money(sheet.hourlyRateMinor, currency)
  if (sheet.weeklyLimitHours) words.number(sheet.weeklyLimitHours)
  for (const day of [week.weekStart, week.weekEnd, week.reviewDueAt]) if (day) words.date(day)
  for (const minor of [week.amountMinor, week.amountMinor + week.clientFeeMinor]) words.money(minor, currency)
  words.number(week.hours)
  for (const e of week.entries) {
    words.date(e.date, 'weekday')
    words.number(e.hours)
  }
  for (const w of sheet.weeks) {
    words.date(w.weekStart)
    words.number(w.hours)
    words.money(w.amountMinor, currency)
  }
}

/** Log time, or change an entry (with `entry`): a plain form whose errors come back under its fields. */
export function EntryForm({
  sheet,
  entry,
  reply,
}: {
  sheet: Sheet
  entry?: Sheet['week']['entries'][number]
  reply?: FieldReply
}) {
  const { t } = useTranslation('timesheets')
  const id = entry ? `entry-${entry.id}` : 'entry'
  const form = useReplyForm(
    reply,
    id,
    entry
      ? {
          date: entry.date,
          hours: String(entry.hours),
          description: entry.description,
          deliverableId: entry.deliverableId ? String(entry.deliverableId) : '',
        }
      : { date: sheet.week.weekStart },
  )
  const f = (name: string) => form.field(name)
  const error = (name: string) => (
    <ErrorText errors={f(name).error ? [f(name).error!] : undefined} id={f(name).errorId} />
  )
  return (
    <ReplyPostForm form={form} id={id} intent={entry ? 'change' : 'add'}>
      {entry ? <input type="hidden" name="id" value={entry.id} /> : null}
      <div className="field">
        <label htmlFor={f('date').id}>{t('form.date')}</label>
        <input {...inputProps(f('date'))} type="date" min={sheet.week.weekStart} max={sheet.week.weekEnd} />
        {error('date')}
      </div>
      <div className="field">
        <label htmlFor={f('hours').id}>{t('form.hours')}</label>
        <input
          {...inputProps(f('hours'))}
          inputMode="decimal"
          aria-describedby={[f('hours').error ? f('hours').errorId : '', `${id}-hours-hint`]
            .filter(Boolean)
            .join(' ')}
        />
        <p className="field-hint" id={`${id}-hours-hint`}>
          {t('form.hoursHint')}
        </p>
        {error('hours')}
      </div>
      <div className="field">
        <label htmlFor={f('description').id}>{t('form.description')}</label>
        <textarea {...inputProps(f('description'))} rows={2} maxLength={timesheetLimits.description} />
        {error('description')}
      </div>
      {sheet.deliverables.length ? (
        <div className="field">
          <label htmlFor={f('deliverableId').id}>{t('form.deliverable')}</label>
          <select {...inputProps(f('deliverableId'))}>
            <option value="">{t('form.noDeliverable')}</option>
            {sheet.deliverables.map((d) => (
              <option key={d.id} value={d.id}>
                {d.number} {d.title}
              </option>
            ))}
          </select>
          {error('deliverableId')}
        </div>
      ) : null}
      <div>
        <Button variant="primary">{entry ? t('entries.save') : t('form.submit')}</Button>
      </div>
    </ReplyPostForm>
  )
}

/** The week's entries; while the freelancer may still change them, each opens its own form. */
export function Entries({
  sheet,
  replies,
}: {
  sheet: Sheet
  replies: Record<string, FieldReply | undefined>
}) {
  const { t } = useTranslation('timesheets')
  const words = useWords()
  const { week } = sheet
  if (!week.entries.length) return <EmptyState title={t('entries.empty')} />
  return (
    <ul className="ui-list" aria-label={t('entries.caption')} data-testid="entries">
      {week.entries.map((e) => (
        <Card as="li" key={e.id} data-testid="entry">
          <p>
            <strong>{words.date(e.date, 'weekday')}</strong>
            {' · '}
            <Hours hours={e.hours} />
            {e.deliverable ? ` · ${e.deliverable}` : ''}
          </p>
          <p>{e.description}</p>
          {week.canEdit ? (
            <>
              <details className="ui-confirm-disclosure" open={!!replies[`entry-${e.id}`]}>
                <summary className={buttonClass('secondary')}>{t('entries.edit')}</summary>
                <EntryForm sheet={sheet} entry={e} reply={replies[`entry-${e.id}`]} />
              </details>
              <ActionButton
                intent="remove"
                fields={{ id: e.id, week: week.weekStart }}
                label={t('entries.remove')}
              />
            </>
          ) : null}
        </Card>
      ))}
    </ul>
  )
}

/** The client's turn: approve behind a step that names what it costs, or dispute with a reason. */
export function Decision({ sheet, reply }: { sheet: Sheet; reply?: FieldReply }) {
  const { t } = useTranslation('timesheets')
  const { week, currency } = sheet
  const words = useWords()
  const money = (minor: number) => words.money(minor, currency)
  const form = useReplyForm(reply, 'dispute')
  const reason = form.field('reason')
  const fields = { weekId: week.id!, week: week.weekStart }
  return (
    <>
      <ButtonGroup label={t('decide.actions')}>
        <ActionButton
          intent="approve"
          fields={fields}
          label={t('decide.approve')}
          variant="primary"
          confirm={{
            question: t('decide.confirm', {
              hours: week.hours,
              amount: money(week.amountMinor),
              total: money(week.amountMinor + week.clientFeeMinor),
            }),
            yes: t('decide.confirmYes', { amount: money(week.amountMinor) }),
          }}
        />
      </ButtonGroup>
      <ReplyPostForm form={form} id="dispute" intent="dispute">
        <input type="hidden" name="weekId" value={week.id!} />
        <input type="hidden" name="week" value={week.weekStart} />
        <div className="field">
          <label htmlFor={reason.id}>{t('decide.reason')}</label>
          <textarea {...inputProps(reason)} rows={2} maxLength={timesheetLimits.reason} />
          <ErrorText errors={reason.error ? [reason.error] : undefined} id={reason.errorId} />
        </div>
        <div>
          <Button variant="destructive">{t('decide.dispute')}</Button>
        </div>
      </ReplyPostForm>
    </>
  )
}

/** Every week logged, newest first: its state, hours, price and what its installment is now. */
export function PastWeeks({ sheet }: { sheet: Sheet }) {
  const { t } = useTranslation('timesheets')
  const words = useWords()
  if (!sheet.weeks.length) return <EmptyState title={t('past.empty')} />
  const row = (w: WeekOut) => ({
    key: w.weekStart,
    testId: 'past-week',
    cells: [
      <Link key="w" to={`?week=${w.weekStart}#week`}>
        {words.date(w.weekStart)}
      </Link>,
      <WeekChip key="s" state={w.status} />,
      <Hours key="h" hours={w.hours} />,
      words.money(w.amountMinor, sheet.currency),
      w.installmentStatus
        ? t(`installment.${w.installmentStatus}`, { defaultValue: w.installmentStatus })
        : '—',
    ],
  })
  return (
    <DataTable
      caption={t('past.caption')}
      columns={[
        { label: t('past.week') },
        { label: t('past.status') },
        { label: t('past.hours'), numeric: true },
        { label: t('past.amount'), numeric: true },
        { label: t('past.payment') },
      ]}
      rows={sheet.weeks.map(row)}
    />
  )
}
