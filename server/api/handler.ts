import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Logger } from '../log.ts'
import { locales, type Locale } from '../db/schema.ts'
import type { Endpoint, ResultOf } from './contract.ts'
import {
  ApiError,
  BodyCutShort,
  bodyCutShortError,
  errorBody,
  forbidden,
  unauthorized,
  validationError,
} from './errors.ts'
import { Role } from '../modules/identity/permissions.ts'
import { asReader } from '../modules/identity/display-name.ts'
import { createRouter } from './router.ts'
import { say } from './messages.ts'

export interface Caller {
  userId: number
  sessionId: string
  roles: number[]
  /** A SuperAdmin signed in without a second factor: this session may only set one up (decision 260). */
  secondFactorSetup?: boolean
  /** When the session ends (ISO). */
  expiresAt?: string
}

// What a setup-only session may call: who it is, signing out, and setting up two-factor sign-in.
const setupOnly = /^identity\/(session|profile|profile-details|logout|two-factor(\/[a-z]+)?)$/

export interface RequestContext {
  requestId: string
  locale: Locale
  log: Logger
  request: Request
  caller: Caller | null
  ip: string
}

export type Handler<E extends Endpoint> = (input: {
  query: z.output<NonNullable<E['query']>>
  params: z.output<NonNullable<E['params']>>
  body: z.output<NonNullable<E['body']>>
  ctx: RequestContext
}) => Promise<ResultOf<E>> | ResultOf<E>

export interface Implementation {
  endpoint: Endpoint
  handler: Handler<any>
}

export function implement<E extends Endpoint>(endpoint: E, handler: Handler<E>): Implementation {
  return { endpoint, handler }
}

/** What the Node entry knows of a call beyond the Request: its request id and the client's address. */
export interface CallInfo {
  requestId?: string
  ip?: string
  /**
   * Given by a page request that changes nothing (GET, HEAD): its loaders' in-process calls share
   * one authentication of the session's token instead of each asking the database again.
   */
  sharedAuthentication?: SharedAuthentication
}
export interface SharedAuthentication {
  authorization?: string | null
  caller?: Promise<Caller | null>
}
export type ApiHandler = (request: Request, info?: CallInfo) => Promise<Response>
export const API_PREFIX = '/api/v1/'
/** The largest JSON body the API reads (the door guard applies it on the socket too, server/http/body-limit.ts). */
export const MAX_JSON_BYTES = 1024 * 1024

interface HandlerOptions {
  implementations: Implementation[]
  log: Logger
  authenticate: (request: Request) => Promise<Caller | null>
  validateResponses: boolean
  extra?: (request: Request, path: string) => Promise<Response | null> | Response | null
}

export function createApiHandler(options: HandlerOptions): ApiHandler {
  // One guard for the whole admin API (decision 220): an `Admin/` path that is not 'admin' would
  // rely on its service alone to refuse other roles, so the server refuses to start with one.
  for (const { endpoint } of options.implementations) {
    if (/^Admin\//i.test(endpoint.path) && endpoint.access !== 'admin')
      throw new Error(`${endpoint.method} ${endpoint.path}: an Admin/ endpoint must have access 'admin'`)
  }
  const router = createRouter(options.implementations)
  return async (request, info = {}) => {
    const requestId = info.requestId ?? randomUUID()
    const started = performance.now()
    const url = new URL(request.url)
    const path = url.pathname.slice(API_PREFIX.length)
    const log = requestLog(options.log, requestId)
    let response: Response
    try {
      response =
        (await options.extra?.(request, path)) ??
        (await dispatch(
          { request, url, path, requestId, log, ip: info.ip ?? '', shared: info.sharedAuthentication },
          router,
          options,
        ))
    } catch (error) {
      response = errorResponse(error, requestId, log, pickLocale(request, url))
    }
    response.headers.set('x-request-id', requestId)
    // Answers are the caller's own: no cache keeps them, and the browser does not store them (a
    // shared computer after sign-out). Only what an endpoint declares public (openapi.json, a
    // public picture) may be kept.
    if (!/^\s*public\b/i.test(response.headers.get('cache-control') ?? ''))
      response.headers.set('cache-control', 'private, no-store')
    if (options.log.isLevelEnabled('info'))
      log().info(
        {
          method: request.method,
          path: url.pathname,
          status: response.status,
          ms: Math.round(performance.now() - started),
        },
        'api',
      )
    return response
  }
}

type Router = ReturnType<typeof createRouter<Handler<any>>>

interface Call {
  request: Request
  url: URL
  path: string
  requestId: string
  log: () => Logger
  ip: string
  shared?: SharedAuthentication
}

/** The endpoint a call names, its caller checked against the endpoint's access, its input parsed, and its handler's answer. */
async function dispatch(call: Call, router: Router, options: HandlerOptions) {
  const { request, url, path } = call
  const found = router.match(request.method, path)
  if (found === 'method-not-allowed')
    throw new ApiError(405, 'Method Not Allowed', `${request.method} is not allowed on /api/v1/${path}`)
  if (!found) throw new ApiError(404, 'Not Found', `No endpoint at /api/v1/${path}`)
  const { endpoint, handler } = found.route
  const caller = allowedCaller(endpoint, await authenticateOnce(call, options.authenticate))
  const ctx: RequestContext = {
    requestId: call.requestId,
    locale: pickLocale(request, url),
    get log() {
      return call.log()
    },
    request,
    caller,
    ip: call.ip,
  }
  const input = {
    query: endpoint.query ? parse(endpoint.query, queryObject(url.searchParams), 'query') : undefined,
    params: endpoint.params ? parse(endpoint.params, found.params, 'params') : undefined,
    body:
      endpoint.body && !(endpoint.multipart && isMultipart(request))
        ? parse(endpoint.body, await readJson(request), 'body')
        : undefined,
    ctx,
  }
  // Names of deleted accounts and of support are said in the caller's language (decision 271).
  const result = await asReader(ctx.locale, () => handler(input as Parameters<Handler<Endpoint>>[0]))
  if (result instanceof Response) return result
  if (endpoint.responseType === 'text')
    return new Response(String(result), { headers: { 'content-type': 'text/plain; charset=utf-8' } })
  if (options.validateResponses) {
    const check = endpoint.response.safeParse(result)
    if (!check.success)
      throw new Error(
        `response of ${endpoint.method} ${endpoint.path} does not match its contract: ${check.error.message}`,
      )
  }
  return Response.json(result)
}

// A reading call of a page request that changes nothing reuses the page's first authentication of
// the same token; every other call (a form's action, an outside client) authenticates on its own.
function authenticateOnce({ request, shared }: Call, authenticate: HandlerOptions['authenticate']) {
  const authorization = request.headers.get('authorization')
  if (!shared || !authorization || request.method !== 'GET') return authenticate(request)
  if (!shared.caller || shared.authorization !== authorization) {
    shared.authorization = authorization
    shared.caller = authenticate(request)
  }
  return shared.caller
}

/** The caller as the endpoint sees it, or the refusal when it may not call it. */
function allowedCaller(endpoint: Endpoint, caller: Caller | null) {
  if (caller?.secondFactorSetup && !setupOnly.test(endpoint.path)) {
    // Elsewhere it is a visitor, and where a visitor may not go it is told what is missing.
    if (endpoint.access !== 'public') {
      const error = new ApiError(
        403,
        'Two-Factor Setup Required',
        'Set up two-factor sign-in before anything else: administrators must have it',
      )
      error.headers = { 'x-second-factor': 'setup' }
      throw error
    }
    caller = null
  }
  if (endpoint.access !== 'public' && !caller) throw unauthorized()
  if (endpoint.access === 'admin' && !caller!.roles.includes(Role.SuperAdmin)) throw forbidden()
  return caller
}

const isMultipart = (request: Request) =>
  /^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')

function parse(schema: z.ZodType, value: unknown, location: string) {
  const nul = pathsWithNul(value)
  if (nul.length)
    throw validationError(
      nul.map((path) => ({
        code: 'custom',
        path,
        message: 'must not contain the NUL character',
        input: undefined,
      })),
      location,
    )
  const result = schema.safeParse(value)
  if (!result.success) throw validationError(result.error.issues, location)
  return result.data
}

/**
 * Where a string holds U+0000: PostgreSQL's text refuses it (the query failed, a 500 there while
 * SQLite stored it; found by the fuzzing, decision 257), and no field of the marketplace needs it.
 */
function pathsWithNul(value: unknown, path: PropertyKey[] = [], out: PropertyKey[][] = []): PropertyKey[][] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(path)
  } else if (value && typeof value === 'object' && path.length < 32) {
    for (const [key, item] of Object.entries(value))
      pathsWithNul(item, [...path, Array.isArray(value) ? Number(key) : key], out)
  }
  return out
}

/** Repeated keys become arrays (docs/product.md §7: "arrays are repeated"). */
export function queryObject(search: URLSearchParams) {
  const out: Record<string, string | string[]> = {}
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key)
    out[key] = all.length > 1 ? all : all[0]
  }
  return out
}

const tooLarge = () => {
  const error = new ApiError(413, 'Payload Too Large', `The body may be at most ${MAX_JSON_BYTES} bytes`)
  // The rest of the body is not read: closing the connection stops the client sending it.
  error.headers = { connection: 'close' }
  return error
}

/**
 * Reads a JSON body as it streams, stopping at MAX_JSON_BYTES: a chunked body (no Content-Length)
 * is refused at the limit, not read whole first. In-process calls from the web UI come here too.
 */
async function readJson(request: Request) {
  const length = Number(request.headers.get('content-length') ?? 0)
  if (length > MAX_JSON_BYTES) throw tooLarge()
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  try {
    for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
      size += next.value.byteLength
      if (size > MAX_JSON_BYTES) {
        void reader!.cancel().catch(() => {})
        throw tooLarge()
      }
      chunks.push(next.value)
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    if (error instanceof BodyCutShort) throw bodyCutShortError('body', error)
    // The client went away (or the door guard stopped it): nothing to parse.
    throw new ApiError(400, 'Invalid Info', 'body: The body could not be read', {
      body: ['The body could not be read'],
    })
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text.trim()) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'Invalid Info', 'body: The body is not valid JSON', {
      body: ['The body is not valid JSON'],
    })
  }
}

export function pickLocale(request: Request, url?: URL): Locale {
  const explicit = url?.searchParams.get('lang')
  if (explicit && (locales as readonly string[]).includes(explicit)) return explicit as Locale
  const header = request.headers.get('accept-language') ?? ''
  for (const part of header.split(',')) {
    const code = part.split(';')[0].trim().slice(0, 2).toLowerCase()
    if ((locales as readonly string[]).includes(code)) return code as Locale
  }
  return 'en'
}

/**
 * The call's logger, bound to its request id, made when something is logged: a page makes several
 * calls, and pino's child (its bindings serialized, its redaction set up) cost more than the rest
 * of a small call when nothing is logged at the server's level.
 */
function requestLog(parent: Logger, requestId: string) {
  let child: Logger | undefined
  return () => (child ??= parent.child({ requestId }))
}

function errorResponse(error: unknown, requestId: string, log: () => Logger, locale: Locale) {
  if (error instanceof ApiError) {
    return Response.json(
      errorBody(error, requestId, (message) => say(message, locale)),
      { status: error.status, headers: error.headers },
    )
  }
  // Internals stay in the log; the caller gets the request id to quote.
  log().error({ err: error }, 'unhandled error in API')
  return Response.json(
    errorBody(
      new ApiError(500, 'Server Error', 'Seems like something went wrong. please contact your administrator'),
      requestId,
    ),
    { status: 500 },
  )
}
