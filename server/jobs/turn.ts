/**
 * Gives the event loop a whole turn: its due timers run and its I/O comes in before the caller goes
 * on. One setImmediate is not enough: taken from an I/O callback or a timer, it runs in the check
 * phase of the same turn, before any timer; the timesheet sweep's first approval and its charge held
 * the loop as one block that way (decision 363). The second, set from the check phase, runs in the
 * next turn, after its timers and its poll.
 */
export const loopTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)))
