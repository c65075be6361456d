// What each side can do now on a project and its contract, mirroring the state machines' guards
// (server/modules/projects/machines.ts). The screens offer a button only when its move would
// succeed, so nobody is handed a button that answers 409. The server still checks every move.

type InstallmentState =
  'pending' | 'funded' | 'submitted' | 'changes_requested' | 'approved' | 'released' | 'removed'
interface ContractLike {
  status: string
  billing?: string
  installments: ReadonlyArray<{ status: string }>
  /** an hourly contract's earliest week not settled keeps it from completing (decision 334) */
  hourly?: { openWeek: unknown } | null
}
interface ProjectLike {
  status: string
  proposalCount: number
}

// A removed installment (a change order took it off the contract) is settled: nothing is owed on it.
const settled = (s: string) => s === 'approved' || s === 'released' || s === 'removed'
// Money is in flight while an installment is funded or under review (the contract's cancel guard).
const inFlight = (s: string) =>
  s === 'funded' || s === 'submitted' || s === 'changes_requested' || s === 'approved'

/** The client's moves on the project page, each true only when the server would take it. */
export function clientProjectMoves(p: ProjectLike, contract: ContractLike | null) {
  const active = contract?.status === 'active'
  return {
    publish: p.status === 'draft',
    edit: p.status === 'draft' || (p.status === 'open' && p.proposalCount === 0),
    // complete: every installment of the contract is approved or released (or removed), and no
    // week of an hourly contract's timesheet is open.
    complete:
      p.status === 'in_progress' &&
      active &&
      contract.installments.every((i) => settled(i.status)) &&
      !contract.hourly?.openWeek,
    // cancel: before a hire, or with a contract while no money is in flight and some installment
    // is still unpaid (once all are paid, the project is completed instead).
    cancel:
      p.status === 'draft' ||
      p.status === 'open' ||
      (p.status === 'in_progress' &&
        active &&
        !contract.installments.some((i) => inFlight(i.status)) &&
        // An hourly contract holds no installments: it may end any time (decision 323).
        (contract.billing === 'hourly' || contract.installments.some((i) => i.status === 'pending'))),
    delete: !contract,
  }
}

export type InstallmentMove =
  | 'installment-fund'
  | 'installment-approve'
  | 'installment-request-changes'
  | 'installment-submit'
  | 'installment-issue'
  | 'installment-review'

/**
 * The moves one side can make on one installment now (none once the contract has ended). An
 * installment with deliverables is submitted by issuing them and reviewed deliverable by deliverable
 * in the register (decision 318): its moves there are links to the register.
 */
export function installmentMoves(
  role: 'client' | 'freelancer',
  state: string,
  contractActive: boolean,
  deliverables = 0,
): InstallmentMove[] {
  if (!contractActive) return []
  if (role === 'client' && state === 'pending') return ['installment-fund']
  if (role === 'client' && state === 'submitted')
    return deliverables
      ? ['installment-review', 'installment-approve']
      : ['installment-approve', 'installment-request-changes']
  if (role === 'freelancer' && (state === 'funded' || state === 'changes_requested'))
    return [deliverables ? 'installment-issue' : 'installment-submit']
  return []
}

/** Whose move an installment waits on (for the side that cannot act): null once it is settled. */
export function waitingOn(state: string): 'client' | 'freelancer' | 'payout' | null {
  const by: Record<InstallmentState, 'client' | 'freelancer' | 'payout' | null> = {
    pending: 'client',
    funded: 'freelancer',
    submitted: 'client',
    changes_requested: 'freelancer',
    approved: 'payout',
    released: null,
    removed: null,
  }
  return by[state as InstallmentState] ?? null
}
