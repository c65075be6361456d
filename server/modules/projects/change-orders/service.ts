import type { Caller } from '#server/api/handler.ts'
import type { ChangeOrderIn } from './contract.ts'
import { accept, close, propose, type ChangeOrderDeps } from './decide.ts'
import { listChangeOrders } from './rows.ts'

// Change orders on a contract (issue 40 item 2, decision 319), wired once per process
// (server/api/services.ts) with the payments' money side (payments/change-order-money.ts).
export function createChangeOrders(deps: ChangeOrderDeps) {
  return {
    list: (caller: Caller, projectId: number) => listChangeOrders(deps.db, caller, projectId),
    propose: (caller: Caller, projectId: number, input: ChangeOrderIn) =>
      propose(deps, caller, projectId, input),
    accept: (caller: Caller, projectId: number, id: number) => accept(deps, caller, projectId, id),
    reject: (caller: Caller, projectId: number, id: number, reason: string) =>
      close(deps, caller, projectId, id, 'reject', reason),
    withdraw: (caller: Caller, projectId: number, id: number) =>
      close(deps, caller, projectId, id, 'withdraw'),
  }
}
export type ChangeOrders = ReturnType<typeof createChangeOrders>
