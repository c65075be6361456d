import type React from 'react'
import { useWords } from '~/lib/words'

export interface TimelineEvent {
  id: number | string
  at: string
  text: React.ReactNode
}

/** Events in order, one dot each on a line, with the time each happened. */
export function Timeline({ events, empty }: { events: TimelineEvent[]; empty?: React.ReactNode }) {
  const words = useWords()
  if (!events.length) return empty ? <p className="muted">{empty}</p> : null
  return (
    <ol className="ui-timeline" data-testid="timeline">
      {events.map((e) => (
        <li key={e.id}>
          <time dateTime={e.at}>{words.date(e.at, 'dateTime')}</time>
          {e.text}
        </li>
      ))}
    </ol>
  )
}
