import type { z } from 'zod'

// One error shape for every failure, so the UI can apply SPEC §8 without guessing:
// { status, title, detail, errors: { field: [messages] }, requestId }.
export class ApiError extends Error {
  override name = 'ApiError'
  status: number
  title: string
  errors?: Record<string, string[]>
  headers?: Record<string, string>
  constructor(status: number, title: string, detail?: string, errors?: Record<string, string[]>) {
    super(detail ?? title)
    this.status = status
    this.title = title
    this.errors = errors
  }
}

/**
 * A request body that stopped before its end: the client closed its side with bytes still owed
 * ('ended'), or sent nothing for too long ('stalled'). The request guard raises it into the body's
 * stream (server/http/request-body.ts); whoever reads the body answers it with `bodyCutShortError`.
 */
export class BodyCutShort extends Error {
  override name = 'BodyCutShort'
  readonly reason: 'ended' | 'stalled'
  constructor(reason: 'ended' | 'stalled') {
    super(reason === 'ended' ? 'The request body ended early' : 'The request body stopped arriving')
    this.reason = reason
  }
}

/** The answer to a body cut short, naming the field being read (400, or 408 for a stall); the connection ends with it. */
export function bodyCutShortError(field: string, cut: BodyCutShort) {
  const error =
    cut.reason === 'ended'
      ? new ApiError(400, 'Invalid Info', `${field}: ${cut.message}`, { [field]: [cut.message] })
      : new ApiError(408, 'Request Timeout', `${field}: ${cut.message}`, { [field]: [cut.message] })
  error.headers = { connection: 'close' }
  return error
}

export const notFound = (what = 'Resource') => new ApiError(404, 'Not Found', `${what} was not found`)
export const forbidden = () => new ApiError(403, 'Forbidden', 'You are not allowed to do this')
export const unauthorized = (detail = 'Sign in to continue') => new ApiError(401, 'Unauthorized', detail)

/** Turns zod issues into field → messages, naming each field by its path (e.g. `email`, `items.0.amount`). */
export function validationError(issues: z.core.$ZodIssue[], location?: string) {
  // A Map, not an object: a field named `__proto__` (a client may send one) is then a field like any other.
  const byField = new Map<string, string[]>()
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.join('.') : (location ?? 'body')
    byField.set(field, [...(byField.get(field) ?? []), issue.message])
  }
  const errors = Object.fromEntries(byField)
  const detail = Object.entries(errors)
    .map(([field, messages]) => `${field}: ${messages[0]}`)
    .join('.\n')
  return new ApiError(400, 'Invalid Info', detail, errors)
}

export function errorBody(error: ApiError, requestId: string) {
  return {
    status: error.status,
    title: error.title,
    detail: error.message,
    errors: error.errors ?? {},
    requestId,
  }
}
