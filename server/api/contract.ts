import { z } from 'zod'

// An endpoint's contract: where it lives and the shapes it takes and gives. Contracts hold no
// server code, so the web UI's typed client imports them too; the API binds each to a handler.
// 'admin' endpoints answer 401 to visitors and 403 to anyone signed in without the SuperAdmin role,
// before their input is read (decision 220); every `Admin/` path must be 'admin'.
export type Access = 'public' | 'user' | 'admin'
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * The largest whole number a query may compare with an integer column: ids, counts and amounts are
 * 32-bit integers on PostgreSQL, where a larger parameter fails the query (a 500 on PostgreSQL and
 * a 404 on SQLite, found by the authorization matrix of decision 255). Inputs stop at it.
 */
export const MAX_DB_INTEGER = 2_147_483_647

/** A row's id in a path, query or body: a whole number from 1 to MAX_DB_INTEGER, one definition for every contract. */
export const recordId = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(MAX_DB_INTEGER, 'is not a known id')

/** A list's page number in a query: 1 unless given, at most 10,000. */
export const pageNumber = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(10_000, 'is too large')
  .default(1)

/**
 * A person's name as a screen shows it (decision 271). A deleted account reads "Deleted user", and
 * support "Workneer support", in the caller's language, as every other text the API words.
 */
export const shownName = z
  .string()
  .describe(
    'A person\'s name as shown. A deleted account reads "Deleted user" and support "Workneer support", in the caller\'s language (?lang=, else Accept-Language, else English).',
  )

export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: Method
  path: string // relative to /api/v1, with {param} placeholders
  summary: string
  tag: string
  access: Access
  query?: Q
  params?: P
  body?: B
  response: R
  /** Also takes multipart/form-data (files beside the body's fields): the handler reads the request itself, and `body` is undefined then. */
  multipart?: boolean
  /** 'text' endpoints answer text/plain (the newsletter's reply is plain text); 'file' ones stream bytes. */
  responseType?: 'json' | 'text' | 'file'
}

export function endpoint<Q extends z.ZodType, P extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Endpoint<Q, P, B, R>,
) {
  return e
}

export type QueryOf<E> = E extends Endpoint<infer Q, any, any, any> ? z.input<Q> : never
export type ParamsOf<E> = E extends Endpoint<any, infer P, any, any> ? z.input<P> : never
export type BodyOf<E> = E extends Endpoint<any, any, infer B, any> ? z.input<B> : never
export type ResultOf<E> = E extends Endpoint<any, any, any, infer R> ? z.output<R> : never

/** Fills {param} placeholders, encoding each value as one path segment. */
export function buildPath(path: string, params: Record<string, unknown> = {}) {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(String(value))
  })
}

/** Query strings repeat array keys (docs/product.md §7: "arrays are repeated"). */
export function buildQuery(query: Record<string, unknown> = {}) {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v))
  }
  const s = search.toString()
  return s ? `?${s}` : ''
}
