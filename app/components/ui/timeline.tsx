import type React from 'react'
import { useTranslation } from '~/lib/translations'
import { formatDateTime } from '~/lib/format'

export interface TimelineEvent {
  id: number | string
  at: string
  /** `at` worded by the server, so the browser builds no Intl.DateTimeFormat while it hydrates (decision 362). */
  atText?: string
  text: React.ReactNode
}

/** Events in order, one dot each on a line, with the time each happened. */
export function Timeline({ events, empty }: { events: TimelineEvent[]; empty?: React.ReactNode }) {
  const { i18n } = useTranslation()
  if (!events.length) return empty ? <p className="muted">{empty}</p> : null
  return (
    <ol className="ui-timeline" data-testid="timeline">
      {events.map((e) => (
        <li key={e.id}>
          <time dateTime={e.at}>{e.atText ?? formatDateTime(e.at, i18n.language)}</time>
          {e.text}
        </li>
      ))}
    </ol>
  )
}
