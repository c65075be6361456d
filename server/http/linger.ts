import type { IncomingMessage } from 'node:http'

// A lingering close, as web servers do it (decision 081). An answer given before the client has
// sent its whole body (a 413, a 401 to an upload) must reach the client before the connection
// closes: closing it while the client still sends makes the kernel answer with a reset, which can
// lose the answer on the client's side (RFC 9112 §9.6). So what the client still sends is read and
// dropped until it stops (its body ends, or nothing comes for QUIET_MS), at most LINGER_MS or
// LINGER_BYTES, and only then is the connection closed.

const LINGER_MS = 2000
const QUIET_MS = 200
const LINGER_BYTES = 16 * 1024 * 1024

/**
 * Drops the rest of `req`'s body, then calls `done` once (with whether the body ended whole).
 * Whoever read the body must have let go of it: its own 'data' listener would be fed too.
 */
export function dropRestOfBody(req: IncomingMessage, done: (ended: boolean) => void) {
  if (req.complete || req.destroyed) return void done(req.complete)
  let dropped = 0
  let quiet: NodeJS.Timeout | undefined
  const finish = () => {
    clearTimeout(quiet)
    clearTimeout(cap)
    req.off('data', drop).off('end', finish).off('close', finish)
    done(req.complete)
  }
  const drop = (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > LINGER_BYTES) return finish()
    clearTimeout(quiet)
    quiet = setTimeout(finish, QUIET_MS)
  }
  const cap = setTimeout(finish, LINGER_MS)
  quiet = setTimeout(finish, QUIET_MS)
  req.on('data', drop).once('end', finish).once('close', finish)
  req.resume()
}
