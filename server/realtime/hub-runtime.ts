import type { HubRouter } from './routing.ts'
import type { HubContext, HubDefinition } from './types.ts'

// A hub as the server runs it: its definition, its methods by lower-cased name, and its router.

export type HubMethod = (ctx: HubContext, ...args: any[]) => unknown

/** Thrown by hub methods to show its message to the caller; any other error is reported generically. */
export class HubError extends Error {}

export interface HubRuntime {
  key: string
  definition: HubDefinition
  /** Lower-cased name → method: ASP.NET matches hub method names case-insensitively. */
  methods: Map<string, HubMethod>
  router: HubRouter
}

export function createHubRuntime(definition: HubDefinition, router: HubRouter): HubRuntime {
  const methods = new Map<string, HubMethod>()
  for (const [name, fn] of Object.entries(definition.methods)) {
    const key = name.toLowerCase()
    if (methods.has(key))
      throw new Error(
        `Hub '${definition.name}' has two methods named '${name}' (names are case-insensitive).`,
      )
    methods.set(key, fn)
  }
  return { key: definition.name.toLowerCase(), definition, methods, router }
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  )
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  )
}

/** The error text a caller sees: a HubError's message, anything else only the generic prefix. */
export function errorText(prefix: string, error: unknown): string {
  return error instanceof HubError ? `${prefix} HubException: ${error.message}` : prefix
}
