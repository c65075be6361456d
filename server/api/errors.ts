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
  return { status: error.status, title: error.title, detail: error.message, errors: error.errors ?? {}, requestId }
}
