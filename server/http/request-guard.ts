import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../log.ts'
import { BodyCutShort } from '../api/errors.ts'
import { rejectUpgrade } from '../realtime/http.ts'
import { answer, type Refusal, type RefusalFormat } from './refusals.ts'
import { dropRestOfBody } from './linger.ts'
import { bodyLimit, declaredTooLarge, type BodyLimit } from './body-limit.ts'
import { destinationOf, type Destination, type ServedPaths } from './destination.ts'
import { BODY_IDLE_MS, watchedRequest, type WatchedRequest } from './request-body.ts'
import { checkRequest } from './request-check.ts'
import { clientAddress, trustedProxies, type TrustedProxies } from './client-address.ts'

// The one guard in front of everything the server serves (decision 080): health, hubs, API, pages
// and static files. Whatever a request carries, it gets a status and the process keeps serving:
//   - `admit` refuses what nothing here can represent (method, target, Host), a method its
//     destination does not serve, and a declared body past its limit (413, decision 081);
//   - `toRequest` makes the web Request the API or the pages read, its body counted and watched;
//   - `run` is the dispatch: an exception that escapes it is logged with the request id and
//     answered 500 (or the connection cut, when the answer had already begun).

// What each destination serves. Pages (and the static files among them) are links and HTML forms:
// GET, HEAD and POST; React Router cannot represent OPTIONS, and no page action takes PUT or
// DELETE. The API's router and the hubs answer 405 per path themselves.
const methodsServed: Partial<Record<Destination, string[]>> = {
  pages: ['GET', 'HEAD', 'POST'],
  health: ['GET', 'HEAD'],
}

// After a body was cut short, how long its reader has to answer before the connection is cut anyway.
const CUT_ANSWER_MS = 10_000

export interface GuardOptions extends ServedPaths {
  log: Logger
  trustProxy: readonly string[]
  bodyIdleMs?: number
}

interface Admitted {
  req: IncomingMessage
  res: ServerResponse
  requestId: string
  destination: Destination
  limit: BodyLimit | null
  body?: WatchedRequest
  /** The guard wrote the answer itself (a refusal, a 500): it closes the connection once the client stops sending. */
  answeredHere?: boolean
}

interface Guard {
  options: GuardOptions
  trusted: TrustedProxies
  /** Requests answered here: what their handlers do afterwards (their read aborted) is expected and not logged. */
  refused: WeakSet<IncomingMessage>
  requests: WeakMap<IncomingMessage, Admitted>
  /** Each connection's latest request: Node's parser errors name only the socket. */
  sockets: WeakMap<Duplex, Admitted>
}

export function createRequestGuard(options: GuardOptions) {
  const guard: Guard = {
    options,
    trusted: trustedProxies(options.trustProxy),
    refused: new WeakSet(),
    requests: new WeakMap(),
    sockets: new WeakMap(),
  }
  return {
    destinationOf: (path: string) => destinationOf(options, path),
    /** The client's address (TRUST_PROXY decides whether X-Forwarded-For is read). */
    clientAddress: (req: IncomingMessage) => clientAddress(req, guard.trusted),
    /**
     * Checks what every request needs and sets its body's limit. Returns where the request goes,
     * or null when it was answered here. A 100-continue expectation is met only once admitted, so
     * a client told 413 never sends the body.
     */
    admit: (req: IncomingMessage, res: ServerResponse, requestId: string) =>
      admit(guard, req, res, requestId),
    /** The web Request of an admitted request, its body counted against its limit and watched for stalls. */
    toRequest: (req: IncomingMessage, res: ServerResponse) => toRequest(guard, req, res),
    /** Runs a dispatch; whatever escapes it is logged with the request id and answered 500. */
    run: (req: IncomingMessage, res: ServerResponse, dispatch: () => unknown) =>
      run(guard, req, res, dispatch),
    clientError: (error: NodeJS.ErrnoException, socket: Duplex) => clientError(guard, error, socket),
    refuseUpgrade: (req: IncomingMessage, socket: Duplex) => refuseUpgrade(guard, req, socket),
    /** Whether the guard answered this request itself (its own 413 or 400). */
    refused: (req: IncomingMessage) => guard.refused.has(req),
  }
}

export type RequestGuard = ReturnType<typeof createRequestGuard>

const formatOf = (destination: Destination): RefusalFormat =>
  destination === 'api' ? 'json' : destination === 'pages' ? 'page' : 'text'

function admit(guard: Guard, req: IncomingMessage, res: ServerResponse, requestId: string) {
  const destination = destinationOf(guard.options, pathOf(req))
  const admitted: Admitted = { req, res, requestId, destination, limit: null }
  const methods = methodsServed[destination]
  const problem =
    checkRequest(req) ??
    (methods && !methods.includes(req.method!)
      ? { status: 405 as const, detail: `${req.method} is not allowed here`, allow: methods.join(', ') }
      : null)
  if (problem) return (refuse(guard, admitted, problem), null)
  admitted.limit = bodyLimit(destination, pathOf(req), String(req.headers['content-type'] ?? ''))
  if (admitted.limit && declaredTooLarge(req, admitted.limit.bytes))
    return (refuse(guard, admitted, tooLarge(admitted.limit)), null)
  guard.requests.set(req, admitted)
  guard.sockets.set(req.socket, admitted)
  res.once('finish', () => afterAnswer(admitted))
  if (String(req.headers.expect ?? '').toLowerCase() === '100-continue') res.writeContinue()
  return destination
}

/**
 * An answer given before its body was read whole (a 401 to an upload): the rest of the body is
 * dropped, and the connection ends unless the body then ends within the linger (Node would read
 * all of it to keep the connection).
 */
function afterAnswer(admitted: Admitted) {
  const { req } = admitted
  if (req.complete || admitted.answeredHere) return
  admitted.body?.abort(new Error('The answer was given before the body was read'))
  setImmediate(() => dropRestOfBody(req, (ended) => ended || req.destroy()))
}

function toRequest(guard: Guard, req: IncomingMessage, res: ServerResponse) {
  const admitted = guard.requests.get(req)!
  const { limit } = admitted
  admitted.body = watchedRequest(
    req,
    res,
    limit && {
      limit: limit.bytes,
      idleMs: guard.options.bodyIdleMs ?? BODY_IDLE_MS,
      // An answer already under way cannot become a 413; it closes the connection as it ends.
      onTooLarge: () => (res.headersSent ? guard.refused.add(req) : refuse(guard, admitted, tooLarge(limit))),
      onStalled: () => res.headersSent || cutShort(guard, admitted, 'stalled'),
    },
  )
  return admitted.body.request
}

function refuse(guard: Guard, admitted: Admitted, refusal: Refusal) {
  const { req, requestId } = admitted
  guard.refused.add(req)
  guard.options.log.info(
    { requestId, method: req.method, path: pathOf(req), status: refusal.status, detail: refusal.detail },
    'request refused',
  )
  answerHere(admitted, refusal)
}

function answerHere(admitted: Admitted, refusal: Refusal) {
  admitted.answeredHere = true
  answer(admitted.req, admitted.res, formatOf(admitted.destination), refusal, admitted.requestId)
}

function tooLarge(limit: BodyLimit): Refusal {
  return {
    status: 413,
    detail: `The body may be at most ${limit.bytes} bytes`,
    limit: { bytes: limit.fileBytes ?? limit.bytes, file: limit.fileBytes !== undefined },
  }
}

/**
 * A body cut short (decision 266). The API's reader fails and answers in the endpoint's shape,
 * naming its field; the connection ends after that answer, or at the deadline. A page (React
 * Router would take the failed read for an aborted request and answer nothing) gets the guard's
 * own 400 page, as a body past its limit gets its 413.
 */
function cutShort(guard: Guard, admitted: Admitted, reason: BodyCutShort['reason']) {
  const { req, res, requestId } = admitted
  const cut = new BodyCutShort(reason)
  guard.options.log.info({ requestId, path: pathOf(req), reason }, 'request body cut short')
  if (admitted.destination === 'api' && admitted.body?.fail(cut))
    return void setTimeout(() => res.writableFinished || req.socket.destroy(), CUT_ANSWER_MS).unref()
  refuse(guard, admitted, { status: 400, detail: cut.message })
  admitted.body?.abort(cut)
}

function run(guard: Guard, req: IncomingMessage, res: ServerResponse, dispatch: () => unknown) {
  const { log } = guard.options
  const failed = (error: unknown) => {
    if (guard.refused.has(req)) return
    const requestId = String(req.headers['x-request-id'])
    if ((req.destroyed && !req.complete) || (res.destroyed && !res.writableFinished))
      return void log.info({ requestId, path: pathOf(req) }, 'client went away mid-request')
    log.error({ err: error, requestId, method: req.method, path: pathOf(req) }, 'request failed')
    answerHere(guard.requests.get(req)!, { status: 500, detail: 'Internal Server Error' })
  }
  try {
    const result = dispatch() as Promise<unknown> | undefined
    if (result && typeof result.then === 'function') result.then(undefined, failed)
  } catch (error) {
    failed(error)
  }
}

/**
 * What Node's parser refuses before anything sees it (a garbled request line or header, headers
 * past 16 KB, a request slower than Node's requestTimeout): answered as Node would (400, 431,
 * 408), and the connection closed.
 */
function clientError(guard: Guard, error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
  const latest = guard.sockets.get(socket)
  const open = latest && !latest.res.writableFinished ? latest : undefined
  // The client closed its side with body bytes still owed: the request's reader answers it.
  if (error.code === 'HPE_INVALID_EOF_STATE' && open && !open.res.headersSent)
    return cutShort(guard, open, 'ended')
  // The body broke off after its answer began: Node ends the connection with that answer.
  if (open?.res.headersSent) return
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    () => socket.destroy(),
  )
}

/** The same checks for an upgrade (a WebSocket to a hub); true when it was answered here. */
function refuseUpgrade(guard: Guard, req: IncomingMessage, socket: Duplex): boolean {
  const problem = checkRequest(req)
  if (!problem) return false
  guard.options.log.info(
    { method: req.method, path: pathOf(req), status: problem.status, detail: problem.detail },
    'upgrade refused',
  )
  rejectUpgrade(socket, problem.status, problem.detail)
  return true
}

/** The path, without the query (which may carry tokens) and without risk of throwing. */
export function pathOf(req: IncomingMessage) {
  return (req.url ?? '/').split('?')[0]
}
