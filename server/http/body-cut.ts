import type { IncomingMessage } from 'node:http'
import { BodyCutShort } from '../api/errors.ts'

// A body that stops before its end (issue 19): the client half-closes with bytes still owed
// (Content-Length larger than what it sent), or stops sending and keeps the socket open. Either
// way the body's reader must fail, so the endpoint answers in its own shape (400 or 408, naming
// the field it was reading), removes what it had received, and the connection ends; nothing
// waits for bytes that will never come.

/** How long a body may send nothing before its read fails (a browser on a slow line sends often). */
export const BODY_IDLE_MS = 30_000

/**
 * Fails the body's reader with `BodyCutShort`. False when no one reads this body (nothing to tell)
 * or it is whole already. The reader is the web stream that wraps `req` (node-fetch-server's
 * createRequest listens for 'error'); destroying `req` instead would cut the socket, and the answer.
 */
export function cutBody(req: IncomingMessage, reason: BodyCutShort['reason']) {
  if (req.complete || req.listenerCount('error') === 0) return false
  req.emit('error', new BodyCutShort(reason))
  return true
}

/**
 * Calls `stalled` when no byte of the body has come for `idleMs` while its reader waits for more.
 * A reader that is itself behind (the stream paused, bytes buffered) is not the client's fault:
 * the clock starts again. Stops at the body's end, or when the request closes.
 */
export function watchBody(req: IncomingMessage, idleMs: number, stalled: () => void) {
  if (req.complete) return
  let timer: NodeJS.Timeout
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => (req.isPaused() || req.readableLength > 0 ? arm() : stalled()), idleMs)
    timer.unref()
  }
  const push = req.push.bind(req)
  req.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk === null) clearTimeout(timer)
    else arm()
    return push(chunk, encoding)
  }
  req.once('close', () => clearTimeout(timer))
  arm()
}
