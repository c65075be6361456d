import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../log.ts'
import { answer, type AnswerDoor, type Refusal } from './door-answers.ts'
import {
  bodyLimit,
  countBody,
  declaredTooLarge,
  linger,
  lingerThenClose,
  LINGER_MS,
  type BodyLimit,
} from './body-limit.ts'
import { BODY_IDLE_MS, cutBody, watchBody } from './body-cut.ts'
import { checkRequest } from './request-check.ts'
import { CLIENT_ADDRESS_HEADER, clientAddress, trustedProxies } from './client-address.ts'
import { rejectUpgrade } from '../realtime/http.ts'

// The one guard in front of every door (decision 080): health, hubs, API, pages and static files.
// Whatever a request carries, it gets a status and the process keeps serving:
//   - `admit` refuses what no door can represent (method, target, Host), then sets the body limit
//     of the door the path leads to (413 as soon as it is passed, decision 081);
//   - `run` is the door's dispatch: an exception that escapes it is logged with the request id
//     and answered 500 (or the connection cut, when the answer had already begun).

export type Door = 'health' | 'hub' | 'hub-negotiate' | 'api' | 'pages'

// What each door serves. Pages (and the static files among them) are links and HTML forms: GET,
// HEAD and POST; React Router cannot represent OPTIONS, and no page action takes PUT or DELETE.
// The API's router and the hubs answer 405 per path themselves.
const doorMethods: Partial<Record<Door, string[]>> = {
  pages: ['GET', 'HEAD', 'POST'],
  health: ['GET', 'HEAD'],
}

// After a body was cut short, how long its reader has to answer before the connection is cut anyway.
const CUT_ANSWER_MS = 10_000

export function createDoorGuard(options: {
  log: Logger
  trustProxy: readonly string[]
  isHubPath: (path: string) => boolean
  apiPrefix: string
  bodyIdleMs?: number
}) {
  const { log } = options
  /**
   * A body cut short (decision 266). The API's reader fails and answers in the endpoint's shape,
   * naming its field; the connection ends after that answer, or at the deadline. A page (React
   * Router takes the failed read for an aborted request and answers nothing) gets the guard's own
   * 400 page, as a body past its limit gets its 413.
   */
  const cutShort = (req: IncomingMessage, res: ServerResponse, reason: 'ended' | 'stalled') => {
    const requestId = String(req.headers['x-request-id'])
    const door = doorOf(pathOf(req))
    log.info({ requestId, path: pathOf(req), reason }, 'request body cut short')
    if (door === 'api' && cutBody(req, reason))
      return void setTimeout(() => res.writableFinished || req.socket.destroy(), CUT_ANSWER_MS).unref()
    refuse(
      req,
      res,
      door,
      {
        status: 400,
        detail: reason === 'ended' ? 'The request body ended early' : 'The request body stopped arriving',
      },
      requestId,
    )
  }
  const trusted = trustedProxies(options.trustProxy)
  // Requests the guard answered itself: what their handler does afterwards (its reader aborted
  // when the connection closed) is expected and not logged.
  const refused = new WeakSet<IncomingMessage>()

  function doorOf(path: string): Door {
    if (path === '/healthz' || path === '/readyz') return 'health'
    if (options.isHubPath(path)) return /\/negotiate\/?$/i.test(path) ? 'hub-negotiate' : 'hub'
    if (path.startsWith(options.apiPrefix) || path === options.apiPrefix.slice(0, -1)) return 'api'
    return 'pages'
  }
  const answerDoor = (door: Door): AnswerDoor =>
    door === 'api' ? 'api' : door === 'pages' ? 'pages' : 'other'

  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    door: Door,
    refusal: Refusal,
    requestId: string,
  ) {
    refused.add(req)
    log.info(
      { requestId, method: req.method, path: pathOf(req), status: refusal.status, detail: refusal.detail },
      'request refused',
    )
    lingerThenClose(req, res)
    answer(req, res, answerDoor(door), refusal, requestId)
  }

  function tooLarge(limit: BodyLimit): Refusal {
    return {
      status: 413,
      detail: `The body may be at most ${limit.bytes} bytes`,
      limit: { bytes: limit.fileBytes ?? limit.bytes, file: limit.fileBytes !== undefined },
    }
  }

  return {
    doorOf,

    /** The client's address (TRUST_PROXY decides whether X-Forwarded-For is read). */
    clientAddress: (req: IncomingMessage) => clientAddress(req, trusted),

    /**
     * Checks what every door needs and limits the body. Returns the door to dispatch to, or null
     * when the request was answered here. A 100-continue expectation is met only once admitted,
     * so a client told 413 never sends the body.
     */
    admit(req: IncomingMessage, res: ServerResponse, requestId: string): Door | null {
      const door = doorOf(pathOf(req))
      const problem = checkRequest(req)
      if (problem) return (void refuse(req, res, door, problem, requestId), null)
      const methods = doorMethods[door]
      if (methods && !methods.includes(req.method!))
        return (
          void refuse(
            req,
            res,
            door,
            { status: 405, detail: `${req.method} is not allowed here`, allow: methods.join(', ') },
            requestId,
          ),
          null
        )
      req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req, trusted)
      const limit = bodyLimit(door, pathOf(req), String(req.headers['content-type'] ?? ''))
      if (limit) {
        if (declaredTooLarge(req, limit.bytes))
          return (void refuse(req, res, door, tooLarge(limit), requestId), null)
        countBody(req, limit.bytes, () => {
          if (res.headersSent) {
            // The handler is answering already (a static file ignores the body): it cannot be told
            // 413, so the rest of the body is dropped, and the connection ends with its answer,
            // or after LINGER_MS if that answer was waiting for the body.
            refused.add(req)
            lingerThenClose(req, res)
            return void setTimeout(() => res.writableFinished || req.socket.destroy(), LINGER_MS).unref()
          }
          refuse(req, res, door, tooLarge(limit), requestId)
        })
        // A client that stops sending and keeps the socket open: the read fails after a quiet spell.
        watchBody(
          req,
          options.bodyIdleMs ?? BODY_IDLE_MS,
          () => res.headersSent || cutShort(req, res, 'stalled'),
        )
      }
      // An answer sent before its body was read whole (a 401 to an upload) ends the connection, so
      // the rest of that body is not read (Node would read it all to keep the connection).
      res.once('finish', () => lingerThenClose(req, res))
      if (String(req.headers.expect ?? '').toLowerCase() === '100-continue') res.writeContinue()
      return door
    },

    /** Runs one door's dispatch; whatever escapes it is logged with the request id and answered 500. */
    run(req: IncomingMessage, res: ServerResponse, requestId: string, door: Door, dispatch: () => unknown) {
      const failed = (error: unknown) => {
        if (refused.has(req)) return
        if (req.destroyed && !req.complete)
          return void log.info({ requestId, path: pathOf(req) }, 'client went away mid-request')
        log.error({ err: error, requestId, method: req.method, path: pathOf(req) }, 'request failed')
        answer(req, res, answerDoor(door), { status: 500, detail: 'Internal Server Error' }, requestId)
      }
      try {
        const result = dispatch() as Promise<unknown> | undefined
        if (result && typeof result.then === 'function') result.then(undefined, failed)
      } catch (error) {
        failed(error)
      }
    },

    /**
     * What Node's parser refuses before any door sees it (a garbled request line or header, headers
     * past 16 KB): answered as Node would (400, 431), then the connection lingers like any refusal.
     */
    clientError(error: NodeJS.ErrnoException, socket: Duplex) {
      const response = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
      if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
      // The client closed its side with body bytes still owed: the request's reader answers it.
      if (error.code === 'HPE_INVALID_EOF_STATE' && response?.req && !response.headersSent)
        return cutShort(response.req, response, 'ended')
      socket.resume()
      if (response?.headersSent) {
        // The body broke off after the handler began answering (a static file): that answer ends
        // the connection, or the deadline does.
        setTimeout(() => socket.destroy(), LINGER_MS).unref()
        return void response.once('finish', () => linger(socket))
      }
      const status =
        error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      )
      linger(socket)
    },

    /** The same checks for an upgrade (a WebSocket to a hub); true when it was answered here. */
    refuseUpgrade(req: IncomingMessage, socket: Duplex): boolean {
      const problem = checkRequest(req)
      if (!problem) return false
      log.info(
        { method: req.method, path: pathOf(req), status: problem.status, detail: problem.detail },
        'upgrade refused',
      )
      rejectUpgrade(socket, problem.status, problem.detail)
      return true
    },

    /** Whether the guard answered this request itself (its own 413 or 400). */
    refused: (req: IncomingMessage) => refused.has(req),
  }
}

export type DoorGuard = ReturnType<typeof createDoorGuard>

/** The path, without the query (which may carry tokens) and without risk of throwing. */
export function pathOf(req: IncomingMessage) {
  return (req.url ?? '/').split('?')[0]
}
