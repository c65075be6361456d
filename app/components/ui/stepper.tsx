import type React from 'react'
import { useTranslation } from '~/lib/translations'
import { StatusChip } from './status-chip'
import { toneOf } from './tones'

export interface Step {
  key: number | string
  title: React.ReactNode
  state: string
  /** What the viewer can do now (forms), or nothing. */
  actions?: React.ReactNode
  /** Who moves next, in words, when it is not the viewer. */
  waiting?: React.ReactNode
  children?: React.ReactNode
  testId?: string
}

/**
 * Installments as numbered steps. The number lives in the marker only (an ordered list with its own
 * numbers turned off), so a title is never numbered twice; each step shows its state as a chip and
 * what the viewer can do about it now.
 */
export function Stepper({ steps, label }: { steps: Step[]; label: string }) {
  const { t } = useTranslation('ui')
  return (
    <ol className="ui-stepper" aria-label={label}>
      {steps.map((s, n) => (
        <li key={s.key} className="ui-step" data-testid={s.testId ?? `step-${n + 1}`} data-status={s.state}>
          <span className={`ui-step-marker ui-tone-${toneOf('installment', s.state)}`} aria-hidden="true">
            {n + 1}
          </span>
          <div className="ui-step-body">
            <div className="ui-card">
              <header className="ui-card-header">
                <h3>
                  <span className="visually-hidden">
                    {t('stepper.step', { n: n + 1, total: steps.length })}:{' '}
                  </span>
                  {s.title}
                </h3>
                <StatusChip machine="installment" state={s.state} />
              </header>
              {s.children}
              {s.actions ? (
                <div className="ui-step-moves">
                  <p className="ui-step-next">{t('stepper.yourMove')}</p>
                  {s.actions}
                </div>
              ) : s.waiting ? (
                <p className="ui-step-next muted">{s.waiting}</p>
              ) : null}
            </div>
          </div>
        </li>
      ))}
    </ol>
  )
}
