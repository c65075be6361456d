import type { Dialect } from '#server/db/migrations/helpers.ts'
import type { Caller } from '#server/api/handler.ts'
import { badRequest, forbidden, notFound } from '#server/api/errors.ts'
import { conflict, lockRow, type Trx } from '../transition.ts'
import { nowIso, type ContractRow } from '../shared.ts'
import type { EntryIn } from './contract.ts'
import { hourlyContract, readTimesheet, type TimesheetDeps, type WeekRow } from './rows.ts'
import { dayOf, editableStates, weekStartOf, type WeekState } from './rules.ts'

// Logging time (decision 324): the freelancer of an active hourly contract adds, changes and removes
// entries of a week while it is open (or disputed, to correct it). The contract's row is locked for
// each change, so two entries sent at once cannot both pass the weekly limit.

export type LogDeps = TimesheetDeps & { dialect: Dialect }
const problem = (key: string) => `timesheets:errors.${key}`

/** The contract locked for the freelancer's change: theirs, active, hourly. */
async function lockedForLogging(deps: LogDeps, trx: Trx, caller: Caller, projectId: number) {
  const found = await hourlyContract(trx, caller, projectId)
  if (found.freelancer_id !== caller.userId) throw forbidden()
  const contract = (await lockRow(trx, deps.dialect, 'contract', found.id))!
  if (contract.status !== 'active')
    throw conflict(`The contract is ${contract.status}; no time can be logged`, contract.status)
  return contract
}

/** The entry's date and deliverable, checked against today, the contract's start and its register. */
async function checkEntry(trx: Trx, contract: ContractRow, input: EntryIn) {
  if (input.date > dayOf(new Date())) throw badRequest('date', problem('future'))
  if (input.date < dayOf(new Date(contract.created_at))) throw badRequest('date', problem('beforeStart'))
  if (input.deliverableId === undefined) return
  const d = await trx
    .selectFrom('deliverable')
    .select('id')
    .where('id', '=', input.deliverableId)
    .where('contract_id', '=', contract.id)
    .executeTakeFirst()
  if (!d) throw badRequest('deliverableId', problem('deliverable'))
}

/** The week of `day` on this contract, written when it is first used; refused (409) unless editable. */
async function editableWeek(deps: LogDeps, trx: Trx, contract: ContractRow, day: string) {
  const weekStart = weekStartOf(day)
  const now = nowIso()
  await trx
    .insertInto('timesheet_week')
    .values({
      contract_id: contract.id,
      project_id: contract.project_id,
      week_start: weekStart,
      status: 'open',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['contract_id', 'week_start']).doNothing())
    .execute()
  let q = trx
    .selectFrom('timesheet_week')
    .selectAll()
    .where('contract_id', '=', contract.id)
    .where('week_start', '=', weekStart)
  if (deps.dialect === 'postgres') q = q.forUpdate()
  const week = await q.executeTakeFirstOrThrow()
  mustBeEditable(week)
  return week
}

function mustBeEditable(week: WeekRow) {
  if (!editableStates.includes(week.status as WeekState))
    throw conflict(
      `The week of ${week.week_start} is ${week.status}; its entries can no longer change`,
      week.status,
    )
}

/** Refuses (400, naming the limit) a week that would hold more hours than the contract allows. */
async function withinLimit(
  trx: Trx,
  contract: ContractRow,
  weekId: number,
  adding: number,
  leaving?: number,
) {
  const limit = contract.weekly_limit_hours
  if (!limit) return
  let q = trx
    .selectFrom('timesheet_entry')
    .select((eb) => eb.fn.sum<number>('quarters').as('q'))
    .where('week_id', '=', weekId)
  if (leaving !== undefined) q = q.where('id', '<>', leaving)
  const logged = Number((await q.executeTakeFirst())?.q ?? 0)
  if (logged + adding > limit * 4) throw badRequest('hours', `${problem('overLimit')}?limit=${limit}`)
}

export async function addEntry(deps: LogDeps, caller: Caller, projectId: number, input: EntryIn) {
  await deps.db.transaction().execute(async (trx) => {
    const contract = await lockedForLogging(deps, trx, caller, projectId)
    await checkEntry(trx, contract, input)
    const week = await editableWeek(deps, trx, contract, input.date)
    await withinLimit(trx, contract, week.id, input.quarters)
    const now = nowIso()
    await trx
      .insertInto('timesheet_entry')
      .values({
        week_id: week.id,
        work_date: input.date,
        quarters: input.quarters,
        description: input.description,
        deliverable_id: input.deliverableId ?? null,
        created_at: now,
        updated_at: now,
      })
      .execute()
  })
  return readTimesheet(deps, caller, projectId, input.date)
}

/** The entry of this contract with its week, locked, refused unless the week is editable. */
async function editableEntry(deps: LogDeps, trx: Trx, contract: ContractRow, entryId: number) {
  const entry = await trx
    .selectFrom('timesheet_entry as e')
    .innerJoin('timesheet_week as w', 'w.id', 'e.week_id')
    .select(['e.id', 'e.week_id', 'e.work_date'])
    .where('e.id', '=', entryId)
    .where('w.contract_id', '=', contract.id)
    .executeTakeFirst()
  if (!entry) throw notFound('Entry')
  let q = trx.selectFrom('timesheet_week').selectAll().where('id', '=', entry.week_id)
  if (deps.dialect === 'postgres') q = q.forUpdate()
  const week = await q.executeTakeFirstOrThrow()
  mustBeEditable(week)
  return { entry, week }
}

export async function changeEntry(
  deps: LogDeps,
  caller: Caller,
  projectId: number,
  entryId: number,
  input: EntryIn,
) {
  await deps.db.transaction().execute(async (trx) => {
    const contract = await lockedForLogging(deps, trx, caller, projectId)
    const { entry, week } = await editableEntry(deps, trx, contract, entryId)
    await checkEntry(trx, contract, input)
    // An entry stays in its week: moving it to another week is removing it and logging it there.
    if (weekStartOf(input.date) !== week.week_start) throw badRequest('date', problem('otherWeek'))
    await withinLimit(trx, contract, week.id, input.quarters, entry.id)
    await trx
      .updateTable('timesheet_entry')
      .set({
        work_date: input.date,
        quarters: input.quarters,
        description: input.description,
        deliverable_id: input.deliverableId ?? null,
        updated_at: nowIso(),
      })
      .where('id', '=', entry.id)
      .execute()
  })
  return readTimesheet(deps, caller, projectId, input.date)
}

export async function removeEntry(deps: LogDeps, caller: Caller, projectId: number, entryId: number) {
  const day = await deps.db.transaction().execute(async (trx) => {
    const contract = await lockedForLogging(deps, trx, caller, projectId)
    const { entry } = await editableEntry(deps, trx, contract, entryId)
    await trx.deleteFrom('timesheet_entry').where('id', '=', entry.id).execute()
    return entry.work_date
  })
  return readTimesheet(deps, caller, projectId, day)
}
