import type { Connection } from './connection.ts'
import { completionRecord, streamItemRecord } from './protocol.ts'
import { errorText, isAsyncIterable } from './hub-runtime.ts'

// What a hub method's result becomes on the wire: one Completion for an ordinary invocation, or
// StreamItems and a Completion for a streaming one.

/** Answers a non-streaming invocation with the method's result (an async iterable is refused). */
export function completeInvocation(
  conn: Connection,
  message: { target: string; invocationId?: string },
  result: unknown,
): void {
  const { target, invocationId } = message
  if (isAsyncIterable(result)) {
    const iterator = result[Symbol.asyncIterator]()
    void iterator.return?.()?.catch(() => {})
    if (invocationId) {
      conn.send(
        completionRecord(invocationId, {
          error: `The client attempted to invoke the streaming '${target}' method with a non-streaming invocation.`,
        }),
      )
    }
  } else if (invocationId) {
    // Non-blocking sends (no invocationId) must never get a Completion: the client would drop the connection.
    conn.send(completionRecord(invocationId, { result }))
  }
}

/**
 * Sends a stream's items as they come, waiting while the transport's buffer is full, then its
 * Completion; stops quietly when `stopped` aborts (a cancellation, or the connection's end).
 * `ended` runs as soon as the stream is over, before a cancelled producer is told to return.
 */
export async function sendStream(
  conn: Connection,
  stream: { id: string; iterable: AsyncIterable<unknown>; stopped: AbortSignal },
  report: (error: unknown) => void,
  ended: () => void,
): Promise<void> {
  const { id, iterable, stopped } = stream
  const iterator = iterable[Symbol.asyncIterator]()
  const abort = new Promise<'aborted'>((resolve) => {
    if (stopped.aborted) resolve('aborted')
    stopped.addEventListener('abort', () => resolve('aborted'), { once: true })
  })
  try {
    for (;;) {
      const next = iterator.next()
      // If the race is lost to a cancellation, a later rejection of next() must not go unhandled.
      next.catch(() => {})
      const step = await Promise.race([next, abort])
      if (step === 'aborted' || step.done) break
      conn.send(streamItemRecord(id, step.value))
      const backlog = conn.transport?.drained()
      if (backlog) await Promise.race([backlog, abort])
    }
    if (!stopped.aborted) conn.send(completionRecord(id, {}))
  } catch (error) {
    if (!stopped.aborted) {
      report(error)
      conn.send(
        completionRecord(id, {
          error: errorText('An error occurred on the server while streaming results.', error),
        }),
      )
    }
  } finally {
    ended()
    // A cancelled producer gets return() so its finally blocks run; it may also watch ctx.signal.
    if (stopped.aborted) iterator.return?.()?.catch(() => {})
  }
}
