import type { Locale } from '#server/db/schema.ts'
import type { Caller } from '#server/api/handler.ts'
import { ApiError } from '#server/api/errors.ts'
import { problem } from '../schemas/fields.ts'
import { checkCatalogue, projectValues } from '../projects.ts'
import { checkFreelancer } from '../invitations/service.ts'
import { DAY, isClient, nowIso, offsetOf, pageOf, parsePlan, type PageQuery } from '../shared.ts'
import { notify, recordActivity, recordCreated, recordEffects } from '../transition.ts'
import { nobody } from '../views.ts'
import type { OfferInput, OfferOut, OfferState } from './contract.ts'
import { createOfferAnswers } from './answers.ts'
import { OFFER_EXPIRY_TOPIC, offerOf, stateOf, type OfferDeps, type OfferRow } from './shared.ts'

// Direct offers (decision 342): a client offers one freelancer work and terms without a public
// posting. The offer's project is invite-only and open (so nobody else finds it, and the hire
// takes it as it takes any open project); the offer row says whom it is for and until when.

/** The offers as the API shows them: their project's work and terms, both people, the state as of now. */
async function shown(deps: OfferDeps, rows: OfferRow[], locale: Locale): Promise<OfferOut[]> {
  if (!rows.length) return []
  const { db, views } = deps
  const projects = await db
    .selectFrom('project')
    .selectAll()
    .where(
      'id',
      'in',
      rows.map((r) => r.project_id),
    )
    .execute()
  const [summaries, people, contracts] = await Promise.all([
    views.summaries(projects, locale),
    views.people(rows.map((r) => r.freelancer_id)),
    db
      .selectFrom('contract')
      .select(['id', 'project_id'])
      .where(
        'project_id',
        'in',
        rows.map((r) => r.project_id),
      )
      .execute(),
  ])
  const now = nowIso()
  return rows.flatMap((r) => {
    const p = projects.find((x) => x.id === r.project_id)
    const s = summaries.find((x) => x.id === r.project_id)
    if (!p || !s) return []
    const hourly = p.budget_type === 'hourly'
    return [
      {
        id: r.id,
        projectId: p.id,
        projectStatus: s.status,
        title: p.title,
        description: p.description,
        category: s.category,
        subcategory: s.subcategory,
        budgetType: s.budgetType,
        budgetMinor: p.budget_minor,
        currency: p.currency,
        durationDays: p.duration_days,
        weeklyHours: hourly ? p.hours_per_week : null,
        installments: parsePlan(p.installment_plan),
        message: r.message,
        status: stateOf(r, now),
        declineReason: r.decline_reason,
        client: s.client,
        freelancer: people.get(r.freelancer_id) ?? nobody(r.freelancer_id),
        expiresAt: r.expires_at,
        createdAt: r.created_at,
        decidedAt: r.decided_at,
        contractId: contracts.find((c) => c.project_id === p.id)?.id ?? null,
      },
    ]
  })
}

const pendingTwice = () =>
  new ApiError(
    409,
    'Conflict',
    'This freelancer already has your pending offer for this work',
    { freelancerId: [problem('offerPending')] },
    'offer_pending',
  )

async function create(deps: OfferDeps, caller: Caller, input: OfferInput, locale: Locale) {
  const { db } = deps
  if (!isClient(caller)) throw new ApiError(403, 'Forbidden', 'Only clients and companies make offers')
  const { categoryId } = await checkCatalogue(db, { subcategoryId: input.subcategoryId, skillIds: [] })
  await checkFreelancer(db, caller, input.freelancerId, {
    self: 'selfOffer',
    notFreelancer: 'offerToFreelancer',
  })
  const hourly = input.budgetType === 'hourly'
  const values = projectValues(
    {
      ...input,
      skillIds: [],
      budgetMinMinor: hourly ? input.budgetMinor : undefined,
      hoursPerWeek: input.weeklyHours,
      remote: true,
      visibility: 'invited',
      publish: false,
    },
    categoryId,
  )
  const row = await db.transaction().execute(async (trx) => {
    const now = nowIso()
    // The same work offered to the same freelancer while the first offer waits is a second click.
    const twice = await trx
      .selectFrom('direct_offer as o')
      .innerJoin('project as p', 'p.id', 'o.project_id')
      .select('o.id')
      .where('o.client_id', '=', caller.userId)
      .where('o.freelancer_id', '=', input.freelancerId)
      .where('o.status', '=', 'pending')
      .where('o.expires_at', '>', now)
      .where('p.title', '=', input.title)
      .executeTakeFirst()
    if (twice) throw pendingTwice()
    const project = await trx
      .insertInto('project')
      .values({
        ...values,
        client_id: caller.userId,
        status: 'open',
        created_at: now,
        updated_at: now,
        published_at: now,
      })
      .returning(['id', 'title'])
      .executeTakeFirstOrThrow()
    await recordCreated(trx, 'project', project.id, 'open', project.id, caller.userId, [], 'direct offer')
    const expiresAt = new Date(Date.parse(now) + input.expiresInDays * DAY).toISOString()
    const offer = await trx
      .insertInto('direct_offer')
      .values({
        project_id: project.id,
        client_id: caller.userId,
        freelancer_id: input.freelancerId,
        message: input.message || null,
        status: 'pending',
        decline_reason: null,
        proposal_id: null,
        expires_at: expiresAt,
        created_at: now,
        decided_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordActivity(trx, project.id, caller.userId, 'offer', offer.id, 'create', 'open')
    await recordEffects(trx, [
      notify(
        [input.freelancerId],
        'proposalOffer',
        project.id,
        'Offer',
        { title: project.title },
        caller.userId,
      ),
      { topic: OFFER_EXPIRY_TOPIC, payload: { offerId: offer.id }, delayMs: input.expiresInDays * DAY },
    ])
    return offer
  })
  return (await shown(deps, [row], locale))[0]!
}

type ListQuery = PageQuery & { status?: OfferState }

/** The caller's offers on one side, newest first; `pending` and `expired` are as of now. */
async function list(
  deps: OfferDeps,
  caller: Caller,
  side: 'client' | 'freelancer',
  query: ListQuery,
  locale: Locale,
) {
  const { db } = deps
  const now = nowIso()
  let q = db
    .selectFrom('direct_offer')
    .where(side === 'client' ? 'client_id' : 'freelancer_id', '=', caller.userId)
  if (query.status === 'pending') q = q.where('status', '=', 'pending').where('expires_at', '>', now)
  else if (query.status === 'expired')
    q = q.where((eb) =>
      eb.or([
        eb('status', '=', 'expired'),
        eb.and([eb('status', '=', 'pending'), eb('expires_at', '<=', now)]),
      ]),
    )
  else if (query.status) q = q.where('status', '=', query.status)
  const [rows, total] = await Promise.all([
    q.selectAll().orderBy('id', 'desc').offset(offsetOf(query)).limit(query.pageSize).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ])
  return pageOf(await shown(deps, rows, locale), query, total?.n)
}

export function createOffers(deps: OfferDeps) {
  const show = async (caller: Caller, offerId: number, locale: Locale) =>
    (await shown(deps, [await offerOf(deps.db, caller, offerId)], locale))[0]!
  const answers = createOfferAnswers(deps)
  return {
    create: create.bind(null, deps),
    sent: (caller: Caller, query: ListQuery, locale: Locale) => list(deps, caller, 'client', query, locale),
    received: (caller: Caller, query: ListQuery, locale: Locale) =>
      list(deps, caller, 'freelancer', query, locale),
    show,
    accept: async (caller: Caller, offerId: number, locale: Locale) =>
      show(caller, await answers.accept(caller, offerId), locale),
    decline: async (caller: Caller, offerId: number, reason: string, locale: Locale) =>
      show(caller, await answers.decline(caller, offerId, reason), locale),
    withdraw: async (caller: Caller, offerId: number, locale: Locale) =>
      show(caller, await answers.withdraw(caller, offerId), locale),
    /** The expiry timer's delivery (OFFER_EXPIRY_TOPIC). */
    expire: answers.expire,
  }
}

export type Offers = ReturnType<typeof createOffers>
