import type React from 'react'
import { useTranslation } from '~/lib/translations'
import { type Machine, type Tone, toneOf } from './tones'

/** A word in a coloured pill, in the flow of the text beside what it describes (never positioned). */
export function Chip({
  tone = 'neutral',
  children,
  ...rest
}: {
  tone?: Tone
  children: React.ReactNode
  'data-status'?: string
  'data-testid'?: string
}) {
  return (
    <span className={`ui-chip ui-tone-${tone}`} {...rest}>
      {children}
    </span>
  )
}

/** An entity's state: one tone and one word per state of its state machine. */
export function StatusChip({ machine, state }: { machine: Machine; state: string }) {
  const { t } = useTranslation('ui')
  return (
    <Chip tone={toneOf(machine, state)} data-status={state} data-testid="status-chip">
      {t(`status.${machine}.${state}`, { defaultValue: state })}
    </Chip>
  )
}
