import type { Caller } from '#server/api/handler.ts'
import type { ProjectState } from '../machines.ts'
import { hireProposal } from '../contracts.ts'
import { nowIso, type ProjectRow } from '../shared.ts'
import {
  lockRow,
  notify,
  recordActivity,
  recordCreated,
  recordEffects,
  transitionProject,
  type Effect,
  type Trx,
} from '../transition.ts'
import { closed, lockOffer, offerOf, stateOf, type OfferDeps, type OfferRow } from './shared.ts'

// The answers to a direct offer (decision 342), each once and in one transaction: the freelancer
// accepts (the contract starts exactly as when a client accepts a proposal: the offer's terms become
// the freelancer's proposal and hireProposal takes it) or declines with a reason; the client
// withdraws; the timer expires it. An offer that ends unaccepted cancels its project.

/** The proposal an acceptance writes: the offer's terms, in the freelancer's name. */
async function proposalFromOffer(trx: Trx, o: OfferRow, proj: ProjectRow) {
  const now = nowIso()
  const proposal = await trx
    .insertInto('proposal')
    .values({
      project_id: proj.id,
      freelancer_id: o.freelancer_id,
      status: 'pending',
      cover_letter: o.message ?? '',
      bid_minor: proj.budget_minor,
      currency: proj.currency,
      duration_days: proj.duration_days ?? 1,
      weekly_hours: proj.budget_type === 'hourly' ? proj.hours_per_week : null,
      installment_plan: proj.installment_plan,
      revision: 1,
      reject_reason: null,
      created_at: now,
      updated_at: now,
      decided_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('project')
    .set((eb) => ({ proposal_count: eb('proposal_count', '+', 1) }))
    .where('id', '=', proj.id)
    .execute()
  await recordCreated(trx, 'proposal', proposal.id, 'pending', proj.id, o.freelancer_id, [], 'direct offer')
  return proposal
}

/** The offer's project and the offer itself, locked in that order (as a proposal's acceptance locks them). */
async function lockBoth(trx: Trx, deps: OfferDeps, offer: OfferRow) {
  const proj = (await lockRow(trx, deps.dialect, 'project', offer.project_id))!
  const o = await lockOffer(trx, deps.dialect, offer.id)
  return { proj, o }
}

async function accept(deps: OfferDeps, caller: Caller, offerId: number) {
  const { db, chat, index } = deps
  const offer = await offerOf(db, caller, offerId, 'freelancer')
  await db.transaction().execute(async (trx) => {
    const { proj, o } = await lockBoth(trx, deps, offer)
    const state = stateOf(o)
    if (state !== 'pending') throw closed(state)
    // The client cancelled the project itself meanwhile.
    if (proj.status !== 'open') throw closed(proj.status)
    const proposal = await proposalFromOffer(trx, o, proj)
    const existing = await trx
      .selectFrom('contract')
      .select('id')
      .where('project_id', '=', proj.id)
      .executeTakeFirst()
    await hireProposal(
      trx,
      { chat, index },
      {
        // The client agreed to these terms when they made the offer.
        actorId: o.client_id,
        project: { ...proj, proposal_count: proj.proposal_count + 1 },
        proposal,
        hasContract: !!existing,
        notice: notify(
          [o.client_id],
          'proposalOfferAccepted',
          proj.id,
          'Offer',
          { title: proj.title },
          caller.userId,
        ),
      },
    )
    await trx
      .updateTable('direct_offer')
      .set({ status: 'accepted', proposal_id: proposal.id, decided_at: nowIso() })
      .where('id', '=', o.id)
      .execute()
    await recordActivity(trx, proj.id, caller.userId, 'offer', o.id, 'accept', 'in_progress')
  })
  return offerId
}

type Ending = {
  state: 'declined' | 'withdrawn' | 'expired'
  reason?: string
  /** Who cancels the project: the client when they withdraw, else the system. */
  actorId: number | null
  effects: Effect[]
}

/** An offer that ends unaccepted: its state written, its project cancelled, the other party told. */
async function end(trx: Trx, proj: ProjectRow, o: OfferRow, ending: Ending) {
  await trx
    .updateTable('direct_offer')
    .set({ status: ending.state, decline_reason: ending.reason ?? null, decided_at: nowIso() })
    .where('id', '=', o.id)
    .execute()
  if (proj.status === 'open')
    await transitionProject(trx, {
      id: proj.id,
      current: proj.status as ProjectState,
      action: 'cancel',
      actor: ending.state === 'withdrawn' ? 'client' : 'system',
      actorId: ending.actorId,
      projectId: proj.id,
      note: `offer ${ending.state}`,
      set: {},
    })
  const action = { declined: 'decline', withdrawn: 'withdraw', expired: 'expire' }[ending.state]
  const cancelled = proj.status === 'open' ? 'cancelled' : proj.status
  await recordActivity(trx, proj.id, ending.actorId, 'offer', o.id, action, cancelled)
  await recordEffects(trx, ending.effects)
}

async function decline(deps: OfferDeps, caller: Caller, offerId: number, reason: string) {
  const offer = await offerOf(deps.db, caller, offerId, 'freelancer')
  await deps.db.transaction().execute(async (trx) => {
    const { proj, o } = await lockBoth(trx, deps, offer)
    const state = stateOf(o)
    if (state !== 'pending') throw closed(state)
    const params = { title: proj.title, reason }
    await end(trx, proj, o, {
      state: 'declined',
      reason,
      actorId: caller.userId,
      effects: [notify([o.client_id], 'proposalOfferDeclined', proj.id, 'Offer', params, caller.userId)],
    })
  })
  return offerId
}

async function withdraw(deps: OfferDeps, caller: Caller, offerId: number) {
  const offer = await offerOf(deps.db, caller, offerId, 'client')
  await deps.db.transaction().execute(async (trx) => {
    const { proj, o } = await lockBoth(trx, deps, offer)
    const state = stateOf(o)
    if (state !== 'pending') throw closed(state)
    const params = { title: proj.title }
    await end(trx, proj, o, {
      state: 'withdrawn',
      actorId: caller.userId,
      effects: [notify([o.freelancer_id], 'proposalOfferWithdrawn', proj.id, 'Offer', params, caller.userId)],
    })
  })
  return offerId
}

/** The timer's delivery: a pending offer past its time expires; one answered first is left as it is. */
async function expire(deps: OfferDeps, payload: { offerId: number }) {
  const offer = await deps.db
    .selectFrom('direct_offer')
    .selectAll()
    .where('id', '=', payload.offerId)
    .executeTakeFirst()
  if (!offer) return
  await deps.db.transaction().execute(async (trx) => {
    const { proj, o } = await lockBoth(trx, deps, offer)
    if (o.status !== 'pending' || stateOf(o) !== 'expired') return
    const params = { title: proj.title }
    await end(trx, proj, o, {
      state: 'expired',
      actorId: null,
      effects: [notify([o.client_id, o.freelancer_id], 'proposalOfferExpired', proj.id, 'Offer', params)],
    })
  })
}

export function createOfferAnswers(deps: OfferDeps) {
  return {
    accept: accept.bind(null, deps),
    decline: decline.bind(null, deps),
    withdraw: withdraw.bind(null, deps),
    expire: expire.bind(null, deps),
  }
}
