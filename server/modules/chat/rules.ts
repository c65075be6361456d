// Chat's limits and names, shared by the API contract, the service and the web forms (no server imports).
export const chatLimits = {
  /** Characters of one message's text. */
  text: 4000,
  /** Files attached to one message. */
  attachments: 5,
  /** Messages in one page of a room's history (default and most). */
  pageDefault: 50,
  pageMax: 100,
  /** Rooms in one page of the chat list (default and most). */
  roomsDefault: 20,
  roomsMax: 50,
  /** Images keep docs/product.md §5's 800 KB rule; documents, video and audio may be larger. */
  imageKb: 800,
  documentKb: 10 * 1024,
  mediaKb: 20 * 1024,
}

/** The contract's events that post a system message into the room of the contract's two parties. */
export const chatEvents = [
  'proposalAccepted',
  'installmentFunded',
  'installmentSubmitted',
  'installmentApproved',
  'installmentPaid',
  'refundRequested',
  'refundAccepted',
  'refundDeclined',
  'disputeDecided',
  'changeOrderProposed',
  'changeOrderAccepted',
  'changeOrderRejected',
] as const
export type ChatEvent = (typeof chatEvents)[number]

/**
 * Why no one can post in a room any more (decision 201): its contract is completed or cancelled,
 * or, before any contract between the two, the project is cancelled, completed or went to someone
 * else. The history stays readable and contract events still post their system messages.
 */
export const closedReasons = ['contractCompleted', 'contractCancelled', 'projectClosed'] as const
export type ClosedReason = (typeof closedReasons)[number]
export function closedReason(projectStatus: string, contractStatus: string | null): ClosedReason | null {
  if (contractStatus === 'completed') return 'contractCompleted'
  if (contractStatus === 'cancelled') return 'contractCancelled'
  if (contractStatus === null && projectStatus !== 'draft' && projectStatus !== 'open') return 'projectClosed'
  return null
}

/** A client message id: chosen by the sender (a UUID is the usual choice), unique per sender and room. */
export const CLIENT_MESSAGE_ID = /^[A-Za-z0-9_-]{8,64}$/

/** The chat hub's group of one room's open pages (JoinGroup checks membership). */
export const roomGroup = (roomId: number) => `room:${roomId}`

/**
 * The outbox topic of a contract event for the chat (delivered by chat/outbox.ts: a system message
 * in the room of the project's client and the freelancer). State changes write it through
 * projects/transition.ts; a module with an event outside the state machines (a refund request)
 * enqueues it itself with `freelancerId`.
 */
export const CHAT_EVENT_TOPIC = 'chat.event'
export interface ChatEventPayload {
  event: ChatEvent
  projectId: number
  /** The installment or proposal the event is about. */
  entity?: 'installment' | 'proposal'
  entityId?: number
  /** When no entity names the freelancer (an event about the contract). */
  freelancerId?: number
  /** The member who caused it (the message is not unread for them); null for the system. */
  actorId: number | null
}

/** The state changes of projects/machines.ts that post a system message. */
export function chatEventOf(entity: string, action: string): ChatEvent | null {
  if (entity === 'proposal') return action === 'accept' ? 'proposalAccepted' : null
  if (entity !== 'installment') return null
  return (
    (
      {
        fund: 'installmentFunded',
        submit: 'installmentSubmitted',
        approve: 'installmentApproved',
        release: 'installmentPaid',
      } as Record<string, ChatEvent>
    )[action] ?? null
  )
}
