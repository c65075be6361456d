import type { IncomingMessage, ServerResponse } from 'node:http'
import { createRequest } from '@remix-run/node-fetch-server'

// The web Request the API and the pages read, with its body passed through a counting stream: the
// limit is enforced on the bytes as the reader takes them (a body without Content-Length, chunked,
// is stopped at the same point), and a body that stops arriving fails its reader (issue 19). The
// reader pulls, so a body nobody reads is never read off the socket.

/** How long a body may send nothing before its read fails (a browser on a slow line sends often). */
export const BODY_IDLE_MS = 30_000

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge'
}

export interface BodyWatch {
  /** The most bytes the body may have. */
  limit: number
  idleMs: number
  /** The body passed its limit: called once, then the request is aborted (its reader stops). */
  onTooLarge(): void
  /** No byte came for `idleMs` while the reader waited for more. */
  onStalled(): void
}

export interface WatchedRequest {
  request: Request
  /** Fails the body's reader with `error` (false when the body was read whole or failed already). */
  fail(error: Error): boolean
  /** Aborts the request (its handler stops, nothing is logged as an error), then fails its reader. */
  abort(reason: Error): void
}

export function watchedRequest(
  req: IncomingMessage,
  res: ServerResponse,
  watch: BodyWatch | null,
): WatchedRequest {
  const plain = createRequest(req, res)
  if (!plain.body || !watch) return { request: plain, fail: () => false, abort: () => {} }
  const aborted = new AbortController()
  let stream!: TransformStreamDefaultController<Uint8Array>
  let done = false
  let seen = 0
  let idle: NodeJS.Timeout | undefined
  const fail = (error: Error) => {
    if (done) return false
    done = true
    clearTimeout(idle)
    stream.error(error)
    return true
  }
  // A reader that is itself behind (the socket paused, bytes waiting) is not the client's fault.
  const arm = () => {
    clearTimeout(idle)
    idle = setTimeout(
      () => (req.isPaused() || req.readableLength > 0 ? arm() : watch.onStalled()),
      watch.idleMs,
    ).unref()
  }
  const counted = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      stream = controller
      arm()
    },
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > watch.limit) {
        watch.onTooLarge()
        return void abort(new BodyTooLarge(`The body may be at most ${watch.limit} bytes`))
      }
      arm()
      controller.enqueue(chunk)
    },
    flush() {
      done = true
      clearTimeout(idle)
    },
  })
  const abort = (reason: Error) => {
    aborted.abort(reason)
    fail(reason)
  }
  req.once('close', () => clearTimeout(idle))
  const request = new Request(plain, {
    body: plain.body.pipeThrough(counted),
    duplex: 'half',
    signal: AbortSignal.any([plain.signal, aborted.signal]),
  } as RequestInit)
  return { request, fail, abort }
}
