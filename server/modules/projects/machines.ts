// The state machines of issue 6 as data: one per entity. A transition names the states it leaves
// from, the state it enters, who may take it and the guard it must pass (checked in the service,
// inside the same transaction; the text here documents it). `applyTransition` in transition.ts is
// the only code that writes a `status` column. docs/state-machines.md is generated from this file
// (`npm run docs:machines` / the test in machines.test.ts keeps it in step).

export type Actor = 'client' | 'freelancer' | 'admin' | 'system'

export interface TransitionDef<S extends string> {
  action: string
  from: readonly S[]
  to: S
  actors: readonly Actor[]
  /** Who sets a system transition going (the client pays; the gateway's confirmation funds): whose turn it is. */
  startedBy?: 'client' | 'freelancer'
  guard?: string
}

export interface Machine<S extends string> {
  entity: 'project' | 'proposal' | 'contract' | 'installment'
  initial: readonly S[]
  states: readonly S[]
  transitions: readonly TransitionDef<S>[]
}

export const projectStates = [
  'draft',
  'in_review',
  'returned',
  'open',
  'in_progress',
  'completed',
  'cancelled',
] as const
export type ProjectState = (typeof projectStates)[number]

export const projectMachine: Machine<ProjectState> = {
  entity: 'project',
  initial: ['draft'],
  states: projectStates,
  transitions: [
    {
      action: 'publish',
      from: ['draft', 'returned'],
      to: 'open',
      actors: ['client'],
      guard:
        'the project has a title, a description, a subcategory and a budget above zero; the review rule does not catch it',
    },
    {
      action: 'submit_for_review',
      from: ['draft', 'returned'],
      to: 'in_review',
      actors: ['client'],
      guard: 'taken instead of publish when the review rule catches the project (same checks as publish)',
    },
    {
      action: 'approve',
      from: ['in_review'],
      to: 'open',
      actors: ['admin'],
      guard: 'everything publishing does follows (search, job alerts)',
    },
    {
      action: 'return',
      from: ['in_review'],
      to: 'returned',
      actors: ['admin'],
      guard: 'a reason is given; the client edits the project and publishes it again',
    },
    {
      action: 'hire',
      from: ['open'],
      to: 'in_progress',
      actors: ['client'],
      guard: 'taken when the client accepts a proposal; no contract exists yet',
    },
    {
      action: 'complete',
      from: ['in_progress'],
      to: 'completed',
      actors: ['client'],
      guard: 'every installment of the contract is approved or released',
    },
    {
      action: 'cancel',
      from: ['draft', 'in_review', 'returned', 'open'],
      to: 'cancelled',
      actors: ['client', 'system'],
      guard:
        "pending proposals are closed as rejected in the same transaction; a direct offer's project is cancelled by the system when the offer is declined or expires (decision 342)",
    },
    {
      action: 'cancel_contract',
      from: ['in_progress'],
      to: 'cancelled',
      actors: ['client'],
      guard: 'no installment is funded, submitted, changes requested or approved (no money in flight)',
    },
  ],
}

export const proposalStates = ['pending', 'accepted', 'rejected', 'withdrawn'] as const
export type ProposalState = (typeof proposalStates)[number]

export const proposalMachine: Machine<ProposalState> = {
  entity: 'proposal',
  initial: ['pending'],
  states: proposalStates,
  transitions: [
    {
      action: 'revise',
      from: ['pending'],
      to: 'pending',
      actors: ['freelancer'],
      guard: 'the project is open; the previous version is kept as a revision',
    },
    {
      action: 'accept',
      from: ['pending'],
      to: 'accepted',
      actors: ['client'],
      guard: 'the project is open and has no contract (single hire)',
    },
    { action: 'reject', from: ['pending'], to: 'rejected', actors: ['client'] },
    {
      action: 'close',
      from: ['pending'],
      to: 'rejected',
      actors: ['system'],
      guard: 'the project was taken by another proposal or cancelled',
    },
    { action: 'withdraw', from: ['pending'], to: 'withdrawn', actors: ['freelancer'] },
  ],
}

export const contractStates = ['active', 'completed', 'cancelled'] as const
export type ContractState = (typeof contractStates)[number]

export const contractMachine: Machine<ContractState> = {
  entity: 'contract',
  initial: ['active'],
  states: contractStates,
  transitions: [
    {
      action: 'complete',
      from: ['active'],
      to: 'completed',
      actors: ['client'],
      guard: 'every installment is approved or released (or removed by a change order)',
    },
    {
      action: 'cancel',
      from: ['active'],
      to: 'cancelled',
      actors: ['client'],
      guard: 'no installment is funded, submitted, changes requested or approved',
    },
  ],
}

export const installmentStates = [
  'pending',
  'funded',
  'submitted',
  'changes_requested',
  'approved',
  'released',
  'removed',
] as const
export type InstallmentState = (typeof installmentStates)[number]

/** Installment states whose money is held for the client and not yet released: a refund may be asked for it. */
export const refundableStates: readonly InstallmentState[] = ['funded', 'submitted', 'changes_requested']
/** Installment states whose money is held: the refundable ones, and approved before its release. */
export const heldStates: readonly InstallmentState[] = [...refundableStates, 'approved']

export const installmentMachine: Machine<InstallmentState> = {
  entity: 'installment',
  initial: ['pending'],
  states: installmentStates,
  transitions: [
    {
      action: 'fund',
      from: ['pending'],
      to: 'funded',
      actors: ['system'],
      startedBy: 'client',
      guard: "the gateway confirmed the client's payment (Payment/PaymentCallback); the contract is active",
    },
    {
      action: 'submit',
      from: ['funded', 'changes_requested'],
      to: 'submitted',
      actors: ['freelancer'],
      guard:
        'the contract is active; a note describes the work; an installment with deliverables is submitted by issuing them (decision 318)',
    },
    {
      action: 'request_changes',
      from: ['submitted'],
      to: 'changes_requested',
      actors: ['client'],
      guard: 'the contract is active; feedback says what to change',
    },
    {
      action: 'approve',
      from: ['submitted'],
      to: 'approved',
      actors: ['client', 'system'],
      guard:
        'the contract is active; no refund request is open or disputed; the client approves only once the latest issue of each of its deliverables is approved (decision 318); the system approves a submission left unanswered for AUTO_RELEASE_DAYS (decision 183)',
    },
    {
      action: 'approve_hours',
      from: ['funded'],
      to: 'approved',
      actors: ['system'],
      guard:
        "the installment is an hourly contract's week whose timesheet the client (or the system, after TIMESHEET_REVIEW_DAYS) approved before it was charged: funding it approves it (decision 324)",
    },
    {
      action: 'release',
      from: ['approved'],
      to: 'released',
      actors: ['system'],
      guard:
        "taken with the approval: the held money (less any part refunded) moves to the freelancer's available balance, less the platform fee",
    },
    {
      action: 'refund',
      from: [...refundableStates],
      to: 'pending',
      actors: ['system'],
      guard:
        'all the money held for it went back to the client (a refund accepted or a dispute decided, decisions 180–182): it awaits funding again',
    },
    {
      action: 'refund_failed',
      from: ['pending'],
      to: 'funded',
      actors: ['system'],
      guard:
        'the gateway failed a full refund after accepting it: the money is held again for the installment, which is funded once more (decision 234)',
    },
    {
      action: 'remove',
      from: ['pending'],
      to: 'removed',
      actors: ['system'],
      guard:
        "the acceptance of a change order that removes it (decision 326), in the acceptance's transaction: money held for it went back to the client first, and none of its deliverables was issued",
    },
    {
      action: 'settle',
      from: [...refundableStates],
      to: 'released',
      actors: ['system'],
      guard:
        'an admin decided its dispute: the part given to the freelancer is released, the rest refunded (decision 182)',
    },
  ],
}

export const machines = [projectMachine, proposalMachine, contractMachine, installmentMachine] as const

export function findTransition<S extends string>(machine: Machine<S>, action: string) {
  return machine.transitions.find((t) => t.action === action)
}

/** docs/state-machines.md, generated from the machines above. */
export function machinesMarkdown() {
  const lines = [
    '# State machines',
    '',
    'Generated from `server/modules/projects/machines.ts` (`machines.test.ts` fails when this file is out of step; regenerate with',
    '`node server/modules/projects/machines-doc.ts`). Every transition runs in one transaction that checks the current state, the',
    'actor and the guard, writes the new state with a compare-and-set update, appends a `project_activity` row and writes its',
    'side effects (notifications and hub messages) to the outbox. A call out of order answers 409 with the current state.',
    '',
  ]
  for (const m of machines) {
    lines.push(
      `## ${m.entity[0].toUpperCase()}${m.entity.slice(1)}`,
      '',
      `States: ${m.states.map((s) => `\`${s}\``).join(', ')}. Starts in ${m.initial.map((s) => `\`${s}\``).join(' or ')}.`,
      '',
    )
    lines.push('| action | from | to | who | guard |', '| --- | --- | --- | --- | --- |')
    for (const t of m.transitions)
      lines.push(
        `| \`${t.action}\` | ${t.from.map((s) => `\`${s}\``).join(', ')} | \`${t.to}\` | ${t.actors.join(', ')}${t.startedBy ? ` (started by the ${t.startedBy})` : ''} | ${t.guard ?? '—'} |`,
      )
    lines.push('', '```mermaid', 'stateDiagram-v2')
    for (const s of m.initial) lines.push(`  [*] --> ${s}`)
    for (const t of m.transitions) for (const f of t.from) lines.push(`  ${f} --> ${t.to}: ${t.action}`)
    lines.push('```', '')
  }
  return lines.join('\n')
}
