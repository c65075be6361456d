import { redirect, type RouterContextProvider } from 'react-router'
import {
  buildPath,
  buildQuery,
  type BodyOf,
  type Endpoint,
  type ParamsOf,
  type QueryOf,
  type ResultOf,
} from '#server/api/contract.ts'
import type { ErrorCode } from '#server/api/errors.ts'
import { appContext } from './context'
import { getLocale } from '../middleware/i18next'
import { SESSION_COOKIE, sessionContext } from './session.server'

export interface ProblemBody {
  status: number
  /** What went wrong, for the program: pages decide on this, never on the (English) title. */
  code: ErrorCode
  title: string
  detail: string
  errors: Record<string, string[]>
  requestId?: string
}

/**
 * A non-2xx answer from the API, carrying its problem body (see server/api/errors.ts). It is a
 * Response, so a loader or action that does not handle it still answers with the API's status and
 * words: React Router renders a thrown Response in the route's ErrorBoundary with its status, and a
 * 400 there is "Invalid Info" with the API's messages (docs/product.md §8), never a 500.
 */
export class ApiCallError extends Response {
  readonly problem: ProblemBody | string
  /** A 429's Retry-After, in seconds, for the page's own answer. */
  readonly retryAfter?: number
  constructor(status: number, problem: ProblemBody | string, retryAfter?: number) {
    const json = typeof problem === 'object'
    super(json ? JSON.stringify(problem) : problem, {
      status,
      headers: { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' },
    })
    this.problem = problem
    this.retryAfter = retryAfter
  }
  /** The problem's code (server/api/errors.ts); undefined for a plain-text answer. */
  get code(): ErrorCode | undefined {
    return typeof this.problem === 'object' ? this.problem.code : undefined
  }
  /** The problem's messages by field (none for a plain-text answer). */
  get fieldErrors(): Record<string, string[]> {
    return typeof this.problem === 'object' ? (this.problem.errors ?? {}) : {}
  }
}

/** The ApiCallError of a non-2xx answer: its problem body, or its text as it is (docs/product.md §8: "or a string body"). */
export async function refusal(response: Response) {
  const text = await response.text()
  let problem: ProblemBody | string = text
  try {
    problem = JSON.parse(text) as ProblemBody
  } catch {
    // a plain-text error body is shown as it is
  }
  return new ApiCallError(response.status, problem, Number(response.headers.get('retry-after')) || undefined)
}

/**
 * A Response thrown on purpose (a redirect apiFor chose when the session ended, a page's own 404),
 * as opposed to an API refusal, which is a Response too: the page follows it instead of handling it.
 */
export const isThrownAnswer = (error: unknown): error is Response =>
  error instanceof Response && !(error instanceof ApiCallError)

type Input<E extends Endpoint> = { query?: QueryOf<E>; params?: ParamsOf<E>; body?: BodyOf<E> }

// The one way loaders and actions reach the API: in process (a Request handed to the API's
// handler, no socket) unless API_URL points at another host. Either way the same Request is built,
// with the caller's language and bearer token. The token is the web session's unless `token` is
// given (null: call anonymously). A call that carried the session token and is refused applies
// docs/product.md §8 at once: 401/402 end the session (cookie cleared) and go to '/', 403 goes to
// /auth/unauthorized. Calls without a token (login, sign-up) get the ApiCallError to handle.
export function apiFor(context: Readonly<RouterContextProvider>, options: { token?: string | null } = {}) {
  const deps = context.get(appContext)
  const locale = getLocale(context)
  const token = options.token === undefined ? context.get(sessionContext).token : options.token
  const base = deps.apiUrl ? new URL('/api/v1/', deps.apiUrl).href : 'http://in-process/api/v1/'

  async function send(endpoint: Endpoint, input: { query?: object; params?: object; body?: unknown }) {
    const url =
      base +
      buildPath(endpoint.path, input.params as Record<string, unknown>) +
      buildQuery(input.query as Record<string, unknown>)
    const headers = new Headers({
      accept: 'application/json',
      'accept-language': locale,
      'x-request-id': deps.requestId,
    })
    if (token) headers.set('authorization', `Bearer ${token}`)
    if (input.body !== undefined) headers.set('content-type', 'application/json')
    const request = new Request(url, {
      method: endpoint.method,
      headers,
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    })
    const response = await (deps.apiUrl
      ? fetch(request)
      : deps.api(request, {
          requestId: deps.requestId,
          ip: deps.clientIp,
          sharedAuthentication: deps.sharedAuthentication,
        }))
    if (token && (response.status === 401 || response.status === 402)) {
      throw redirect('/', {
        headers: { 'set-cookie': `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax` },
      })
    }
    // A SuperAdmin's setup-only session goes to set up two-factor sign-in (decision 260).
    if (token && response.status === 403)
      throw redirect(
        response.headers.get('x-second-factor') === 'setup'
          ? '/profile/account-settings/two-factor'
          : '/auth/unauthorized',
      )
    if (!response.ok) throw await refusal(response)
    return endpoint.responseType === 'text' ? response.text() : response.json()
  }

  return {
    call<E extends Endpoint>(endpoint: E, input: Input<E> = {}): Promise<ResultOf<E>> {
      return send(endpoint, input as { query?: object; params?: object; body?: unknown }) as Promise<
        ResultOf<E>
      >
    },
  }
}
