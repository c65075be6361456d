// The support ticket's state machine (issue 18 item 1, decision 211), as data in the shape of
// projects/machines.ts: a transition names the states it leaves from, the state it enters and who
// may take it. `support` is a SuperAdmin acting from the admin area; `author` is the person who
// filed the ticket (their reply moves it, see below). service.ts is the only code that writes
// complaint.status, with a compare-and-set update, and every support change is also an
// admin_audit row (audit.ts).

export const complaintStates = ['open', 'in_progress', 'waiting_on_user', 'resolved', 'closed'] as const
export type ComplaintState = (typeof complaintStates)[number]

export type ComplaintActor = 'support' | 'author'

export interface ComplaintTransition {
  action: string
  from: readonly ComplaintState[]
  to: ComplaintState
  actors: readonly ComplaintActor[]
  guard?: string
}

export const complaintMachine = {
  entity: 'complaint',
  initial: ['open'] as const,
  states: complaintStates,
  transitions: [
    { action: 'start', from: ['open', 'waiting_on_user'], to: 'in_progress', actors: ['support'] },
    {
      action: 'ask_user',
      from: ['open', 'in_progress'],
      to: 'waiting_on_user',
      actors: ['support'],
      guard: 'a reason says what support needs from the user',
    },
    {
      action: 'user_replied',
      from: ['waiting_on_user'],
      to: 'in_progress',
      actors: ['author'],
      guard: "taken by the author's reply",
    },
    {
      action: 'resolve',
      from: ['open', 'in_progress', 'waiting_on_user'],
      to: 'resolved',
      actors: ['support'],
      guard: 'a reason says how it was resolved',
    },
    {
      action: 'reopen',
      from: ['resolved'],
      to: 'in_progress',
      actors: ['support', 'author'],
      guard: "the author's reply to a resolved ticket reopens it",
    },
    { action: 'close', from: ['resolved'], to: 'closed', actors: ['support'] },
  ] satisfies ComplaintTransition[],
} as const

/** The transition a support agent takes to bring a ticket from `from` to `to`, if there is one. */
export function supportTransition(from: ComplaintState, to: ComplaintState): ComplaintTransition | undefined {
  return (complaintMachine.transitions as readonly ComplaintTransition[]).find(
    (t) => t.to === to && t.from.includes(from) && t.actors.includes('support'),
  )
}

/** What an author's reply does to the ticket's state: the transition it takes, or none. Closed tickets take no replies. */
export function authorReplyTransition(from: ComplaintState): ComplaintTransition | undefined {
  return (complaintMachine.transitions as readonly ComplaintTransition[]).find(
    (t) => t.from.includes(from) && t.actors.includes('author'),
  )
}

/** The states support may move a ticket to from `from`. */
export function supportTargets(from: ComplaintState): ComplaintState[] {
  return complaintStates.filter((to) => supportTransition(from, to))
}
