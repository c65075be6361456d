// The states of a hiring request (decision 338), apart from the contract so that pages can name
// them without bringing zod into the browser.
export const hiringStates = ['open', 'claimed', 'proposed', 'done', 'cancelled'] as const
/** A request still being worked on: it counts towards the limit and takes proposals. */
export const liveStates = ['open', 'claimed', 'proposed'] as const
