import { ApiError } from '#server/api/errors.ts'
import type { Caller } from '#server/api/handler.ts'
import { renderMail } from './mails.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { EMAIL_TOPIC } from '#server/jobs/mailer.ts'
import { callerAccount, fieldError, limit, nowIso, type CallInfo, type IdentityContext } from './context.ts'
import { dummyHash, verifyPassword } from './passwords.ts'
import { Role } from './permissions.ts'
import { attemptCode, secondFactorRow, spendCode } from './second-factor-sign-in.ts'
import { revokeSessions } from './sessions.ts'

// A person closes their own account (issue 42 item 3, decision 330): with their password, and a
// code when two-factor sign-in is on; not while a contract is active or money is held or owed.
// Every session ends and a mail says until when signing in restores the account; after
// CLOSING_GRACE_DAYS a job erases it as an admin's deletion does.

export const CLOSING_GRACE_DAYS = 14
const DAY_MS = 86_400_000

const refusals = {
  active_contract: 'Finish or cancel your active contracts first',
  money_held: 'Money is held for one of your contracts: it must be released or refunded first',
  money_owed: 'Your balance holds money: withdraw it first',
} as const

/** When an account asked to be closed at `closingAt` is erased. */
export const erasedAfter = (closingAt: string) =>
  new Date(Date.parse(closingAt) + CLOSING_GRACE_DAYS * DAY_MS).toISOString()

export async function closeAccount(
  ctx: IdentityContext,
  caller: Caller,
  input: { password?: string; code?: string },
  info: CallInfo,
) {
  const { db } = ctx
  await limit(ctx, ctx.limits.loginIp, info.ip)
  // An administrator's account is removed by another administrator, who checks the platform keeps one.
  if (caller.roles.includes(Role.SuperAdmin))
    throw new ApiError(403, 'Forbidden', "An administrator's account is closed by another administrator")
  const user = await callerAccount(db, caller.userId)
  const ok = await verifyPassword(input.password ?? '', user.password_hash ?? (await dummyHash()))
  if (user.password_hash && !ok) throw fieldError('password', 'is not your current password')
  if ((await secondFactorRow(db, user.id))?.enabled_at) {
    if (!input.code) throw fieldError('code', 'is required: enter the current code from your app')
    await attemptCode(ctx, user.id, () =>
      db.transaction().execute((trx) => spendCode(ctx, trx, user.id, input.code!)),
    )
  } else if (!user.password_hash) throw fieldError('password', 'is required: set a password first')
  return db.transaction().execute(async (trx) => {
    const blocker = await ctx.closingBlocker?.(trx, user.id)
    if (blocker) throw new ApiError(409, 'Conflict', refusals[blocker], undefined, blocker)
    const closingAt = nowIso()
    await trx
      .updateTable('app_user')
      .set({ closing_at: closingAt, updated_at: closingAt })
      .where('id', '=', user.id)
      .execute()
    await revokeSessions(trx, user.id)
    const erasedAt = erasedAfter(closingAt)
    await enqueue(
      trx,
      EMAIL_TOPIC,
      renderMail('accountClosing', {
        to: user.email,
        language: user.language,
        name: user.first_name,
        link: new URL('/auth/login', ctx.publicUrl).href,
        vars: {
          date: new Date(erasedAt).toLocaleDateString(user.language, { dateStyle: 'long', timeZone: 'UTC' }),
        },
      }),
    )
    return { closingAt, erasedAt }
  })
}
