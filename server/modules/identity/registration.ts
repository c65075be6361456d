import type { AccountType, Locale, UserStatus } from '#server/db/schema.ts'
import type { SignupKind } from './contract.ts'
import { limit, mail, nowIso, siteUrl, type CallInfo, type IdentityContext, type Trx } from './context.ts'
import { apiMessage } from './mails.ts'
import { issueToken } from './mail-tokens.ts'
import { checkPassword, hashPassword } from './passwords.ts'
import { lifetimes, roleOfKind } from './rules.ts'
import { enqueue } from '#server/jobs/outbox.ts'
import { Role } from './permissions.ts'

/** An account was created (payload `{ userId, freelancer }`): a freelancer's first job alert is made after commit (alerts/from-profile.ts). */
export const ACCOUNT_CREATED_TOPIC = 'identity.account-created'

// Signing up with an email address and a password: the account waits (Pending) until the link
// mailed to the address is opened.

export interface NewAccount {
  email: string
  emailVerified: boolean
  passwordHash: string | null
  firstName: string
  lastName: string
  companyName?: string | null
  phoneNumber?: string | null
  language: Locale
  accountType: AccountType
  status: UserStatus
  provider: string
}

/** Inserts an account row (terms accepted now) and, when given, its role; answers its id. */
export async function insertAccount(trx: Trx, account: NewAccount, role?: number) {
  const now = nowIso()
  const row = await trx
    .insertInto('app_user')
    .values({
      email: account.email,
      email_verified: account.emailVerified ? 1 : 0,
      password_hash: account.passwordHash,
      first_name: account.firstName,
      last_name: account.lastName,
      company_name: account.companyName ?? null,
      phone_number: account.phoneNumber ?? null,
      language: account.language,
      account_type: account.accountType,
      status: account.status,
      image_file_id: null,
      provider: account.provider,
      terms_accepted_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (role !== undefined) await trx.insertInto('user_role').values({ user_id: row.id, role }).execute()
  await enqueue(trx, ACCOUNT_CREATED_TOPIC, { userId: row.id, freelancer: role === Role.Freelancer })
  return row.id
}

/** A company's name is kept only for a company account. */
export const companyNameFor = (accountType: SignupKind, companyName?: string) =>
  accountType === 'company' ? (companyName ?? null) : null

export async function register(
  ctx: IdentityContext,
  input: {
    accountType: SignupKind
    firstName: string
    lastName: string
    companyName?: string
    email: string
    password: string
    phoneNumber?: string
    language?: Locale
    acceptTerms: true
  },
  info: CallInfo,
) {
  await limit(ctx, ctx.limits.registerIp, info.ip)
  await limit(ctx, ctx.limits.registerEmail, input.email)
  checkPassword('password', input.password, input.email)
  // Hash first, whatever happens next, so a known address answers in the same time.
  const hash = await hashPassword(input.password)
  const language = input.language ?? info.locale
  await ctx.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('app_user')
      .select(['id', 'email', 'first_name', 'language', 'status'])
      .where('email', '=', input.email)
      .executeTakeFirst()
    if (existing) {
      // No account discovery: the answer is the same; the owner is told by mail instead.
      if (existing.status !== 'Deleted')
        await mail(trx, 'accountExists', existing, siteUrl(ctx, '/auth/forgot-password'))
      return
    }
    const id = await insertAccount(
      trx,
      {
        email: input.email,
        emailVerified: false,
        passwordHash: hash,
        firstName: input.firstName,
        lastName: input.lastName,
        companyName: companyNameFor(input.accountType, input.companyName),
        phoneNumber: input.phoneNumber,
        language,
        accountType: input.accountType,
        status: 'Pending',
        provider: 'local',
      },
      roleOfKind[input.accountType],
    )
    const token = await issueToken(trx, id, 'verify_email', lifetimes.verifyEmailMs)
    const user = { email: input.email, first_name: input.firstName, language }
    await mail(trx, 'verifyEmail', user, siteUrl(ctx, `/auth/verify-email?token=${token}`))
  })
  return { message: apiMessage(info.locale, 'registered'), email: input.email }
}
