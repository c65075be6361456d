import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { ContractState } from './machines.ts'
import { lockRow, notify, transitionInstallment, type Trx } from './transition.ts'
import type { ContractRow, InstallmentRow } from './shared.ts'

// The projects' side of a payment: the payments module reads a contract's installments to price
// a payment, and funds them once the gateway confirms it. Neither needs the money mover, so the
// payments module is built on these before the projects service that releases money through it.

export const projectTitle = async (trx: Trx, projectId: number) =>
  (await trx.selectFrom('project').select('title').where('id', '=', projectId).executeTakeFirstOrThrow())
    .title

type FundingDeps = {
  dialect: Dialect
}

type PaymentInstallment = Pick<
  InstallmentRow,
  'id' | 'position' | 'title' | 'amount_minor' | 'currency' | 'status'
>

/** A contract and some of its installments as payments sees them, from rows at hand. */
export const paymentContract = (
  c: ContractRow,
  projectId: number,
  title: string,
  installments: PaymentInstallment[],
) => ({
  id: c.id,
  projectId,
  title,
  clientId: c.client_id,
  freelancerId: c.freelancer_id,
  status: c.status as ContractState,
  currency: c.currency,
  billing: c.billing,
  installments,
})
export type PaymentContract = ReturnType<typeof paymentContract>

/**
 * A project's contract and its installments as payments sees them (only `installmentIds` when
 * given: pricing a week of a year-long contract need not read the other 51), locked for the
 * caller's transaction.
 */
async function contractForPayment(deps: FundingDeps, trx: Trx, projectId: number, installmentIds?: number[]) {
  const { dialect } = deps
  const found = await trx
    .selectFrom('contract')
    .select('id')
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  if (!found) return undefined
  const c = (await lockRow(trx, dialect, 'contract', found.id))!
  const title = await projectTitle(trx, projectId)
  let installments = trx
    .selectFrom('installment')
    .select(['id', 'position', 'title', 'amount_minor', 'currency', 'status'])
    .where('contract_id', '=', c.id)
  if (installmentIds) installments = installments.where('id', 'in', [0, ...installmentIds])
  return paymentContract(c, projectId, title, await installments.orderBy('position').execute())
}

/**
 * What a payment funded: the installments it moved to funded (their rows as they are now), on their
 * contract, both locked in the caller's transaction, and the project's title, so the release that
 * follows in it reads none of them again (decision 363).
 */
export type Funded = { contract: ContractRow; title: string; installments: InstallmentRow[] }

/** The gateway confirmed a payment: its installments still pending on an active contract become funded. */
async function fundInstallments(
  deps: FundingDeps,
  trx: Trx,
  contractId: number,
  installmentIds: number[],
): Promise<Funded> {
  const { dialect } = deps
  const contract = (await lockRow(trx, dialect, 'contract', contractId))!
  if (contract.status !== 'active') return { contract, title: '', installments: [] }
  const title = await projectTitle(trx, contract.project_id)
  const funded: InstallmentRow[] = []
  for (const id of [...installmentIds].sort((a, b) => a - b)) {
    const i = await lockRow(trx, dialect, 'installment', id)
    if (!i || i.contract_id !== contractId || i.status !== 'pending') continue
    await transitionInstallment(trx, {
      id,
      current: 'pending',
      action: 'fund',
      actor: 'system',
      // The client paid; the gateway's confirmation only makes it so. The feed names the client.
      actorId: contract.client_id,
      projectId: contract.project_id,
      effects: [
        notify([contract.freelancer_id], 'installmentFunded', contract.project_id, 'Project', {
          title,
          installment: i.title,
        }),
      ],
    })
    funded.push({ ...i, status: 'funded' })
  }
  return { contract, title, installments: funded }
}

export function createContractFunding(deps: FundingDeps) {
  return {
    contractForPayment: contractForPayment.bind(null, deps),
    fundInstallments: fundInstallments.bind(null, deps),
  }
}

export type ContractFunding = ReturnType<typeof createContractFunding>
