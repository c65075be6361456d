import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import { conflict, lockRow, recordActivity, type Trx } from '../transition.ts'
import { nowIso } from '../shared.ts'
import { registerOf, requireRole } from './access.ts'
import { deliverableLimits, type RevisionScheme } from './rules.ts'
import type { DeliverableInput } from './schemas.ts'

// The freelancer adds a deliverable to the contract's register, under one of its installments
// still to be approved. The first deliverable fixes the contract's revision scheme.

/** `publicUrl` makes the links of the emails the register sends. */
export type WriteDeps = { db: DB; dialect: Dialect; publicUrl: string }

/** A refusal naming the field, with the state it found (409). */
export const stateConflict = (field: string, detail: string, state: string, code?: 'already_answered') =>
  new ApiError(
    409,
    'Conflict',
    `${field}: ${detail}.\nstate: ${state}`,
    { [field]: [detail], state: [state] },
    code,
  )

const closedInstallment = ['approved', 'released', 'removed']

/** The installment the deliverable goes under: the contract's, not yet approved. */
async function openInstallment(trx: Trx, contractId: number, installmentId: number) {
  const installment = await trx
    .selectFrom('installment')
    .select(['id', 'status'])
    .where('id', '=', installmentId)
    .where('contract_id', '=', contractId)
    .executeTakeFirst()
  if (!installment)
    throw new ApiError(400, 'Invalid Info', 'installmentId: not an installment of this contract', {
      installmentId: ['deliverables:errors.choose'],
    })
  if (closedInstallment.includes(installment.status))
    throw stateConflict(
      'installmentId',
      installment.status === 'removed'
        ? 'The installment was removed'
        : 'The installment is already approved',
      installment.status,
    )
  return installment
}

/** The register's scheme fixed by its first deliverable; a later deliverable naming another is refused. */
async function fixScheme(trx: Trx, contractId: number, scheme: RevisionScheme | undefined) {
  const register = await trx
    .selectFrom('deliverable_register')
    .select('scheme')
    .where('contract_id', '=', contractId)
    .executeTakeFirst()
  if (register && scheme && scheme !== register.scheme)
    throw stateConflict('scheme', `The register's revision scheme is ${register.scheme}`, register.scheme)
  if (!register)
    await trx
      .insertInto('deliverable_register')
      .values({ contract_id: contractId, scheme: scheme ?? 'stage', created_at: nowIso() })
      .execute()
}

/** The next position in the register; refused when the number is taken or the register is full. */
async function nextPosition(trx: Trx, contractId: number, number: string) {
  const taken = await trx
    .selectFrom('deliverable')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('position').as('last')])
    .where('contract_id', '=', contractId)
    .executeTakeFirstOrThrow()
  if (Number(taken.n) >= deliverableLimits.perContract)
    throw conflict('The register has as many deliverables as it may hold')
  const same = await trx
    .selectFrom('deliverable')
    .select('id')
    .where('contract_id', '=', contractId)
    .where('number', '=', number)
    .executeTakeFirst()
  if (same) throw stateConflict('number', 'deliverables:errors.numberTaken', 'taken')
  return Number(taken.last ?? 0) + 1
}

export async function addDeliverable(
  deps: WriteDeps,
  caller: Caller,
  projectId: number,
  input: DeliverableInput,
) {
  const { db, dialect } = deps
  const party = await registerOf(db, caller, projectId)
  requireRole(party, 'freelancer')
  return db.transaction().execute(async (trx) => {
    const contract = (await lockRow(trx, dialect, 'contract', party.contract.id))!
    if (contract.status !== 'active')
      throw conflict(`The contract is ${contract.status}; its register is closed`, contract.status)
    const installment = await openInstallment(trx, contract.id, input.installmentId)
    await fixScheme(trx, contract.id, input.scheme)
    const row = await trx
      .insertInto('deliverable')
      .values({
        contract_id: contract.id,
        installment_id: installment.id,
        number: input.number,
        title: input.title,
        discipline: input.discipline,
        position: await nextPosition(trx, contract.id, input.number),
        created_by: caller.userId,
        created_at: nowIso(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const note = `${input.number} ${input.title}`
    await recordActivity(
      trx,
      contract.project_id,
      caller.userId,
      'deliverable',
      row.id,
      'add',
      contract.status,
      note,
    )
    return row.id
  })
}
