import type { Selectable, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { ApiError } from '#server/api/errors.ts'
import { enqueueEach } from '#server/jobs/outbox.ts'
import { CHAT_EVENT_TOPIC, chatEventOf, type ChatEventPayload } from '../chat/rules.ts'
import {
  contractMachine,
  findTransition,
  installmentMachine,
  projectMachine,
  proposalMachine,
  type Actor,
  type ContractState,
  type InstallmentState,
  type Machine,
  type ProjectState,
  type ProposalState,
} from './machines.ts'

export type Trx = Transaction<Database>
type Table = 'project' | 'proposal' | 'contract' | 'installment'

/** A side effect written to the outbox in the transaction of the state change. */
export interface Effect {
  topic: string
  payload: unknown
  delayMs?: number
}

export const NOTIFY_TOPIC = 'projects.notify'
/** A project was published (payload `{ projectId }`): job alerts match it after commit (alerts/service.ts). */
export const PUBLISHED_TOPIC = 'projects.published'
export type AlertType = 'Project' | 'Proposal' | 'ProjectStatus' | 'Invitation' | 'Offer'
/** A notification for users (docs/product.md §3 alert item): `kind` picks the text in the recipient's language. */
export function notify(
  userIds: number[],
  kind: string,
  projectId: number,
  type: AlertType,
  params: Record<string, string | number> = {},
  /** The person whose step it is: the notification names them as readers see them (notifications/inbox.ts). */
  actorId?: number,
): Effect {
  return {
    topic: NOTIFY_TOPIC,
    payload: { userIds: [...new Set(userIds)], kind, projectId, type, params, actorId },
  }
}

/** A notification whose texts live in another module's namespace (locales/<lng>/<ns>.json `notify.<kind>`). */
export const inNamespace = (ns: string, e: Effect): Effect => ({
  ...e,
  payload: { ...(e.payload as object), ns },
})

export function conflict(detail: string, state?: string) {
  const error = new ApiError(409, 'Conflict', detail, state ? { state: [state] } : undefined)
  return error
}

/** Reads a row for a state change, locking it on PostgreSQL (SQLite's BEGIN IMMEDIATE already holds the write lock). */
export async function lockRow<T extends Table>(
  trx: Trx,
  dialect: Dialect,
  table: T,
  id: number,
): Promise<Selectable<Database[T]> | undefined> {
  let q = trx
    .selectFrom(table as 'project')
    .selectAll()
    .where('id', '=', id)
  if (dialect === 'postgres') q = q.forUpdate()
  return (await q.executeTakeFirst()) as Selectable<Database[T]> | undefined
}

interface Step<S extends string> {
  id: number
  current: S
  action: string
  actor: Actor
  actorId: number | null
  projectId: number
  /** Failure reason, or null when the guard passes. */
  guard?: () => Promise<string | null> | string | null
  set?: Record<string, unknown>
  note?: string | null
  effects?: Effect[]
}

// The one way a status changes: check the transition exists from the current state, the actor may
// take it and the guard passes; write the new state only if the row still holds the state we saw
// (compare-and-set); append the activity row; write the side effects to the outbox. All inside the
// caller's transaction, so a failure anywhere leaves nothing behind.
async function apply<S extends string>(
  trx: Trx,
  machine: Machine<S>,
  table: Table,
  step: Step<S>,
): Promise<S> {
  const t = findTransition(machine, step.action)
  if (!t) throw new Error(`unknown ${machine.entity} transition ${step.action}`)
  if (!t.actors.includes(step.actor))
    throw new ApiError(
      403,
      'Forbidden',
      `A ${step.actor} cannot ${step.action.replace('_', ' ')} a ${machine.entity}`,
    )
  if (!t.from.includes(step.current))
    throw conflict(
      `The ${machine.entity} is ${step.current.replace('_', ' ')}; it cannot ${step.action.replace('_', ' ')} now`,
      step.current,
    )
  if (step.guard) {
    const reason = await step.guard()
    if (reason) throw conflict(reason, step.current)
  }
  const now = new Date().toISOString()
  const result = await trx
    .updateTable(table)
    .set({ ...(step.set ?? {}), status: t.to, updated_at: now } as never)
    .where('id', '=', step.id)
    .where('status', '=', step.current)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1)
    throw conflict(`The ${machine.entity} changed meanwhile; reload and try again`)
  await trx
    .insertInto('project_activity')
    .values({
      project_id: step.projectId,
      actor_id: step.actorId,
      entity: machine.entity,
      entity_id: step.id,
      action: step.action,
      from_state: step.current,
      to_state: t.to,
      note: step.note ?? null,
      created_at: now,
    })
    .execute()
  const effects = [...(step.effects ?? [])]
  // Every way of publishing (a client's publish, an admin's approval after review) passes here, so
  // the event cannot be forgotten by a new one.
  if (machine.entity === 'project' && t.to === 'open' && step.current !== 'open')
    effects.push({ topic: PUBLISHED_TOPIC, payload: { projectId: step.id } })
  // The contract's events also go into the chat room of its two parties (a system message).
  const event = chatEventOf(machine.entity, step.action)
  if (event)
    effects.push({
      topic: CHAT_EVENT_TOPIC,
      payload: {
        event,
        projectId: step.projectId,
        entity: machine.entity as 'installment' | 'proposal',
        entityId: step.id,
        actorId: step.actorId,
      } satisfies ChatEventPayload,
    })
  // One insert for all of them (decision 367).
  await enqueueEach(trx, effects)
  return t.to
}

export const transitionProject = (trx: Trx, step: Step<ProjectState>) =>
  apply(trx, projectMachine, 'project', step)
export const transitionProposal = (trx: Trx, step: Step<ProposalState>) =>
  apply(trx, proposalMachine, 'proposal', step)
export const transitionContract = (trx: Trx, step: Step<ContractState>) =>
  apply(trx, contractMachine, 'contract', step)
export const transitionInstallment = (trx: Trx, step: Step<InstallmentState>) =>
  apply(trx, installmentMachine, 'installment', step)

/** An entity's first state is also an activity row (created as draft/open/pending/active). */
export async function recordCreated(
  trx: Trx,
  entity: Table,
  id: number,
  state: string,
  projectId: number,
  actorId: number | null,
  effects: Effect[] = [],
  note?: string,
) {
  await trx
    .insertInto('project_activity')
    .values({
      project_id: projectId,
      actor_id: actorId,
      entity,
      entity_id: id,
      action: 'create',
      from_state: null,
      to_state: state,
      note: note ?? null,
      created_at: new Date().toISOString(),
    })
    .execute()
  await enqueueEach(trx, effects)
}

/**
 * Activity without a state change (a comment, a file, a review). `note` is a person's words or a
 * name; `params` are facts (an amount in minor units and its currency) the reader's screen words.
 */
export async function recordActivity(
  trx: Trx,
  projectId: number,
  actorId: number | null,
  entity: string,
  entityId: number,
  action: string,
  state: string,
  note?: string,
  params?: Record<string, string | number>,
) {
  await trx
    .insertInto('project_activity')
    .values({
      project_id: projectId,
      actor_id: actorId,
      entity,
      entity_id: entityId,
      action,
      from_state: state,
      to_state: state,
      note: note ?? null,
      params: params ? JSON.stringify(params) : null,
      created_at: new Date().toISOString(),
    })
    .execute()
}

/** Side effects without a state change (a comment's notification, a review's timer), written to the outbox. */
export const recordEffects = (trx: Trx, effects: Effect[]) => enqueueEach(trx, effects)
