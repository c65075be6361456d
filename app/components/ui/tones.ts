import {
  contractStates,
  installmentStates,
  projectStates,
  proposalStates,
} from '#server/modules/projects/machines.ts'
import { complaintStates } from '#server/modules/complaints/machine.ts'
import { payoutStates, refundStatuses } from '#server/modules/payments/states.ts'

export type Tone = 'neutral' | 'info' | 'progress' | 'success' | 'danger'

// One tone per state of every state machine (docs/state-machines.md). The tone is a hint: the chip
// always shows the state's word too, so nothing depends on seeing colour.
// neutral: not started or stepped aside · info: live, waiting on nobody in particular ·
// progress: waiting on someone's next move · success: done · danger: refused or stopped.
export const stateTones = {
  project: {
    draft: 'neutral',
    in_review: 'progress',
    returned: 'danger',
    open: 'info',
    in_progress: 'progress',
    completed: 'success',
    cancelled: 'danger',
  },
  proposal: { pending: 'progress', accepted: 'success', rejected: 'danger', withdrawn: 'neutral' },
  contract: { active: 'info', completed: 'success', cancelled: 'danger' },
  installment: {
    pending: 'neutral',
    funded: 'info',
    submitted: 'progress',
    changes_requested: 'danger',
    approved: 'success',
    released: 'success',
    removed: 'neutral',
  },
  refund: {
    open: 'progress',
    accepted: 'success',
    declined: 'danger',
    disputed: 'danger',
    decided: 'success',
  },
  complaint: {
    open: 'info',
    in_progress: 'progress',
    waiting_on_user: 'danger',
    resolved: 'success',
    closed: 'neutral',
  },
  payout: { requested: 'progress', paid: 'success', failed: 'danger' },
} as const satisfies {
  project: Record<(typeof projectStates)[number], Tone>
  proposal: Record<(typeof proposalStates)[number], Tone>
  contract: Record<(typeof contractStates)[number], Tone>
  installment: Record<(typeof installmentStates)[number], Tone>
  refund: Record<(typeof refundStatuses)[number], Tone>
  complaint: Record<(typeof complaintStates)[number], Tone>
  payout: Record<(typeof payoutStates)[number], Tone>
}

export type Machine = keyof typeof stateTones

export const machineStates = {
  project: projectStates,
  proposal: proposalStates,
  contract: contractStates,
  installment: installmentStates,
  refund: refundStatuses,
  complaint: complaintStates,
  payout: payoutStates,
} as const

export function toneOf(machine: Machine, state: string): Tone {
  return (stateTones[machine] as Record<string, Tone>)[state] ?? 'neutral'
}
