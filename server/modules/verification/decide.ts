import type { Caller } from '#server/api/handler.ts'
import { ApiError, notFound } from '#server/api/errors.ts'
import { displayName } from '../identity/display-name.ts'
import { recordAdminAction } from '../complaints/audit.ts'
import { requireAdmin } from '../admin-users/shared.ts'
import type { VerificationDeps } from './requests.ts'
import type { VerificationKind } from './choices.ts'
import { unseal } from './sealed.ts'
import { tellDecision } from './notices.ts'

// The SuperAdmins' side of verification (decision 332): the queue of pending requests, a
// request's document (decrypted for them alone, and audited), and the decision, after which the
// document (its bytes and its key) is deleted and the person told.

const OBJECT = 'identity_verification'
export const QUEUE_PAGE = 20

export async function queue({ db }: VerificationDeps, caller: Caller, page: number) {
  requireAdmin(caller)
  const pending = db.selectFrom('identity_verification as v').where('v.state', '=', 'pending')
  const [rows, count] = await Promise.all([
    pending
      .innerJoin('app_user as u', 'u.id', 'v.user_id')
      .leftJoin('verification_document as d', 'd.verification_id', 'v.id')
      .select([
        'v.id',
        'v.user_id',
        'v.kind',
        'v.created_at',
        'u.first_name',
        'u.last_name',
        'u.company_name',
        'u.status',
        'u.email',
        'u.account_type',
        'd.original_name',
        'd.mime',
        'd.size',
      ])
      .orderBy('v.id')
      .limit(QUEUE_PAGE)
      .offset((page - 1) * QUEUE_PAGE)
      .execute(),
    pending.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  return {
    data: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      name: displayName(r),
      email: r.email,
      accountType: r.account_type,
      kind: r.kind as VerificationKind,
      requestedAt: new Date(r.created_at).toISOString(),
      document:
        r.original_name != null ? { name: r.original_name, mime: r.mime ?? '', size: r.size ?? 0 } : null,
    })),
    total: Number(count.n),
    page,
    pageSize: QUEUE_PAGE,
  }
}

const asciiName = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_')

/** A pending request's document, decrypted; reading it is an audited admin action. */
export async function documentOf({ db }: VerificationDeps, caller: Caller, id: number) {
  const adminId = requireAdmin(caller)
  const bytes = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('verification_document')
      .selectAll()
      .where('verification_id', '=', id)
      .executeTakeFirst()
    if (!row) throw notFound('Document')
    await recordAdminAction(trx, {
      actorId: adminId,
      action: 'verification.document',
      objectType: OBJECT,
      objectId: id,
    })
    return { row, plain: await unseal(trx, id, row) }
  })
  const { row, plain } = bytes
  return new Response(new Uint8Array(plain), {
    headers: {
      'content-type': row.mime,
      'content-length': String(plain.length),
      'content-disposition': `${row.mime === 'application/pdf' || row.mime.startsWith('image/') ? 'inline' : 'attachment'}; filename="${asciiName(row.original_name)}"; filename*=UTF-8''${encodeURIComponent(row.original_name)}`,
      // Never kept by a browser or a proxy, and never run as a page.
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  })
}

const decided = () =>
  new ApiError(
    409,
    'Conflict',
    'The request is decided already',
    { decision: ['errors.decided'] },
    'already_decided',
  )

/** Approves or rejects a pending request: the document goes, the person is told, the audit keeps why. */
export async function decide(
  deps: VerificationDeps,
  caller: Caller,
  id: number,
  input: { decision: 'approve' | 'reject'; reason: string },
) {
  const adminId = requireAdmin(caller)
  const state = input.decision === 'approve' ? ('verified' as const) : ('rejected' as const)
  const decidedAt = new Date().toISOString()
  const reason = input.reason || null
  await deps.db.transaction().execute(async (trx) => {
    const request = await trx
      .selectFrom('identity_verification')
      .select(['user_id', 'state'])
      .where('id', '=', id)
      .executeTakeFirst()
    if (!request) throw notFound('Verification request')
    // The state is checked again by the update itself, so two admins deciding at once cannot both win.
    const changed = await trx
      .updateTable('identity_verification')
      .set({ state, reason, decided_by: adminId, decided_at: decidedAt })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .executeTakeFirst()
    if (request.state !== 'pending' || Number(changed.numUpdatedRows) !== 1) throw decided()
    await trx.deleteFrom('verification_document').where('verification_id', '=', id).execute()
    await recordAdminAction(trx, {
      actorId: adminId,
      action: state === 'verified' ? 'verification.approve' : 'verification.reject',
      objectType: OBJECT,
      objectId: id,
      fromState: 'pending',
      toState: state,
      reason,
    })
    await tellDecision(trx, deps, { id, userId: request.user_id, state, reason: reason ?? '' })
  })
  return { id, state, reason, decidedAt }
}
