import { Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { useWords, type Wording } from '~/lib/words'
import { Notice } from '~/components/ui/notice'
import { Button, buttonClass } from '~/components/ui/button'
import type { DataExportState } from '#server/modules/data-export/contract.ts'

// Account settings › Download your data (issue 42 item 2, decision 331): the latest export's state
// (none, preparing, ready until a date with its link, expired, failed), and a plain form that asks
// for a new one when it may be asked; the link is a document request, so it works without JavaScript.
/** The days the section shows, for its page's loader to word. */
export function wordDataExport(words: Wording, state: DataExportState) {
  for (const day of [state.requestedAt, state.expiresAt]) if (day) words.date(day)
  if (state.nextRequestAt) words.date(state.nextRequestAt, 'dateTime')
}

export function DataExportSection({
  state,
  notice,
  refused,
}: {
  state: DataExportState
  /** After a redirect: the request was taken, or a download link opened nothing. */
  notice: 'requested' | 'gone' | null
  /** The API's reason for refusing a request (one at a time, one a day). */
  refused?: string
}) {
  const { t } = useTranslation('auth')
  const words = useWords()
  const date = (value: string | null) => (value ? words.date(value) : '')
  const canAsk = state.state !== 'preparing' && !state.nextRequestAt
  return (
    <section aria-labelledby="data-export-heading" id="data-export" data-testid="data-export">
      <h2 id="data-export-heading">{t('dataExport.title')}</h2>
      <p>{t('dataExport.lead')}</p>
      {notice === 'requested' ? <Notice kind="success">{t('dataExport.requested')}</Notice> : null}
      {notice === 'gone' ? <Notice kind="warning">{t('dataExport.gone')}</Notice> : null}
      {refused ? (
        <Notice kind="error">
          {t(`dataExport.refused.${refused}`, {
            date: state.nextRequestAt ? words.date(state.nextRequestAt, 'dateTime') : '',
          })}
        </Notice>
      ) : null}
      <p data-testid="data-export-state" data-state={state.state}>
        {state.state === 'none' ? t('dataExport.none') : null}
        {state.state === 'preparing' ? t('dataExport.preparing', { date: date(state.requestedAt) }) : null}
        {state.state === 'ready' ? t('dataExport.ready', { date: date(state.expiresAt) }) : null}
        {state.state === 'expired' ? t('dataExport.expired', { date: date(state.expiresAt) }) : null}
        {state.state === 'failed' ? t('dataExport.failed') : null}
      </p>
      {state.state === 'ready' ? (
        <p>
          <a href="/profile/account-settings/data-export/download" className={buttonClass('primary')}>
            {t('dataExport.download')}
          </a>
        </p>
      ) : null}
      {canAsk ? (
        <Form method="post">
          <input type="hidden" name="intent" value="dataExport" />
          <Button>{t('dataExport.request')}</Button>
        </Form>
      ) : state.nextRequestAt ? (
        <p className="muted small">
          {t('dataExport.next', { date: words.date(state.nextRequestAt, 'dateTime') })}
        </p>
      ) : null}
    </section>
  )
}
