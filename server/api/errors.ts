import type { z } from 'zod'

/**
 * The error catalogue: every title an API error may carry, with the stable machine code it has by
 * default. Clients decide on the code (the title is for people and may be reworded); a throw site
 * may pass a more specific code than its title's.
 */
export const errorTitles = {
  'Invalid Info': 'invalid_input',
  Invalid: 'invalid_token',
  Failed: 'third_party_failed',
  'Bad Request': 'bad_request',
  Unauthorized: 'unauthorized',
  Forbidden: 'forbidden',
  'Account Suspended': 'account_suspended',
  'Email Not Verified': 'email_not_verified',
  'Two-Factor Setup Required': 'two_factor_setup_required',
  'Not Found': 'not_found',
  'Method Not Allowed': 'method_not_allowed',
  'Request Timeout': 'request_timeout',
  Conflict: 'conflict',
  'Conversation Closed': 'conversation_closed',
  'Payload Too Large': 'payload_too_large',
  'File Size': 'file_too_large',
  'Invalid Image': 'invalid_image',
  'Invalid Excel': 'invalid_excel',
  'Invalid Document': 'invalid_document',
  'Invalid Media': 'invalid_media',
  'Invalid Attachment': 'invalid_attachment',
  'Too Many Requests': 'too_many_requests',
  'Server Error': 'server_error',
  'Not Implemented': 'not_implemented',
  'HTTP Version Not Supported': 'http_version_not_supported',
} as const
export type ErrorTitle = keyof typeof errorTitles

/** Codes a throw site may give beyond its title's default, where a client acts on the difference. */
export const specificCodes = [
  'file_missing',
  // The deliverables register (decision 318).
  'revision_not_next',
  'already_answered',
  // An hourly contract takes no change orders (decision 323).
  'hourly_contract',
  // An hourly contract is not completed while a week of its timesheet is open (decision 334).
  'timesheet_week_open',
  // What keeps a person from closing their own account (issue 42 item 3).
  'active_contract',
  'money_held',
  'money_owed',
  // Payout onboarding through the gateway (decision 333).
  'payouts_not_enabled',
  'payout_account_kept',
  // A person's export of their data (issue 42 item 2): one at a time, one a day.
  'export_in_progress',
  'export_rate_limited',
  // Verified identity (decision 332).
  'verification_open',
  'already_verified',
  'already_decided',
  // Hiring with Workneer's help (decision 338): three live requests at most; a closed one is not changed.
  'hiring_requests_limit',
  'hiring_request_closed',
  // Direct offers (decision 342): answered, withdrawn or expired offers change no more; one pending
  // offer of the same work to the same freelancer.
  'offer_closed',
  'offer_expired',
  'offer_pending',
] as const
export type ErrorCode = (typeof errorTitles)[ErrorTitle] | (typeof specificCodes)[number]
export const errorCodes: readonly ErrorCode[] = [...new Set(Object.values(errorTitles)), ...specificCodes]

// One error shape for every failure, so the UI can apply docs/product.md §8 without guessing:
// { status, code, title, detail, errors: { field: [messages] }, requestId }.
export class ApiError extends Error {
  override name = 'ApiError'
  status: number
  title: ErrorTitle
  code: ErrorCode
  errors?: Record<string, string[]>
  headers?: Record<string, string>
  constructor(
    status: number,
    title: ErrorTitle,
    detail?: string,
    errors?: Record<string, string[]>,
    code: ErrorCode = errorTitles[title],
  ) {
    super(detail ?? title)
    this.status = status
    this.title = title
    this.code = code
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
/** A refused value: 400 Invalid Info naming its field, with the message under it. */
export const badRequest = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
/** A move the current state does not allow: 409 Conflict. */
export const conflict = (detail: string) => new ApiError(409, 'Conflict', detail)

/** Turns zod issues into field → messages, naming each field by its path (e.g. `email`, `items.0.amount`). */
export function validationError(issues: z.core.$ZodIssue[], location?: string) {
  // A Map, not an object: a field named `__proto__` (a client may send one) is then a field like any other.
  const byField = new Map<string, string[]>()
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.join('.') : (location ?? 'body')
    byField.set(field, [...(byField.get(field) ?? []), issue.message])
  }
  const errors = Object.fromEntries(byField)
  return new ApiError(400, 'Invalid Info', detailOf(errors), errors)
}

/** The detail of a refusal by field: each field's first message, joined by '.\n' (docs/product.md §8). */
const detailOf = (errors: Record<string, string[]>) =>
  Object.entries(errors)
    .map(([field, messages]) => `${field}: ${messages[0]}`)
    .join('.\n')

/**
 * The error's body. `say` words its messages for the caller (server/api/messages.ts): the field
 * messages, and the detail when it is made of them or is one message itself.
 */
export function errorBody(error: ApiError, requestId: string, say: (message: string) => string = (m) => m) {
  const errors = Object.fromEntries(
    Object.entries(error.errors ?? {}).map(([field, messages]) => [field, messages.map(say)]),
  )
  const fromFields = error.errors !== undefined && error.message === detailOf(error.errors)
  return {
    status: error.status,
    code: error.code,
    title: error.title,
    detail: fromFields ? detailOf(errors) : say(error.message),
    errors,
    requestId,
  }
}
