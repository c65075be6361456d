import type { Caller } from '#server/api/handler.ts'
import { ask, statusOf, type VerificationDeps } from './requests.ts'
import { decide, documentOf, queue } from './decide.ts'

// Verified identity (issue 42 item 4, decision 332), bound to its dependencies.
export function createVerificationService(deps: VerificationDeps) {
  return {
    status: (caller: Caller) => statusOf(deps.db, caller),
    ask: (caller: Caller, request: Request | null) => ask(deps, caller, request),
    queue: (caller: Caller, page: number) => queue(deps, caller, page),
    document: (caller: Caller, id: number) => documentOf(deps, caller, id),
    decide: (caller: Caller, id: number, input: { decision: 'approve' | 'reject'; reason: string }) =>
      decide(deps, caller, id, input),
  }
}

export type VerificationService = ReturnType<typeof createVerificationService>
