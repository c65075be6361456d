import type { Locale } from '#server/db/schema.ts'
import type { SignupKind } from './contract.ts'
import { mail, siteUrl, type IdentityContext } from './context.ts'
import { issueToken } from './mail-tokens.ts'
import { hashPassword } from './passwords.ts'
import { Role } from './permissions.ts'
import { companyNameFor, insertAccount } from './registration.ts'
import { lifetimes, roleOfKind } from './rules.ts'

// Accounts the operator's tools make: the first SuperAdmin and the demo marketplace's people.

/** `npm run admin:create`: a SuperAdmin with no password; the reset mail sets one. An existing address becomes a SuperAdmin. */
export async function createAdmin(
  ctx: IdentityContext,
  input: { email: string; firstName: string; lastName: string; language: Locale },
) {
  const { db } = ctx
  const existing = await db
    .selectFrom('app_user')
    .select(['id'])
    .where('email', '=', input.email)
    .executeTakeFirst()
  const userId = await db.transaction().execute(async (trx) => {
    const id =
      existing?.id ??
      (await insertAccount(trx, {
        ...input,
        emailVerified: true,
        passwordHash: null,
        accountType: 'admin',
        status: 'Active',
        provider: 'local',
      }))
    await trx
      .insertInto('user_role')
      .values({ user_id: id, role: Role.SuperAdmin })
      .onConflict((oc) => oc.doNothing())
      .execute()
    const user = await trx
      .selectFrom('app_user')
      .select(['id', 'email', 'first_name', 'language'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const token = await issueToken(trx, id, 'reset_password', lifetimes.verifyEmailMs)
    await mail(trx, 'resetPassword', user, siteUrl(ctx, `/auth/reset-password?token=${token}`))
    return id
  })
  return { userId, created: !existing }
}

/**
 * For the demo seed only: active accounts with a confirmed email and one known password, so a
 * newcomer can sign in and look around. The password is hashed once for all of them (argon2 is
 * slow on purpose). An address that is taken keeps its account, whose id is returned.
 */
export async function createDemoAccounts(
  { db }: IdentityContext,
  accounts: Array<{
    accountType: SignupKind
    firstName: string
    lastName: string
    companyName?: string
    email: string
    language: Locale
  }>,
  password: string,
) {
  const hash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    const ids = new Map<string, number>()
    for (const input of accounts) {
      const existing = await trx
        .selectFrom('app_user')
        .select('id')
        .where('email', '=', input.email)
        .executeTakeFirst()
      const id =
        existing?.id ??
        (await insertAccount(
          trx,
          {
            ...input,
            companyName: companyNameFor(input.accountType, input.companyName),
            emailVerified: true,
            passwordHash: hash,
            status: 'Active',
            provider: 'local',
          },
          roleOfKind[input.accountType],
        ))
      ids.set(input.email, id)
    }
    return ids
  })
}

/** True while no account exists: the signal to load the demo marketplace on a first start. */
export async function hasNoAccounts({ db }: IdentityContext) {
  return !(await db.selectFrom('app_user').select('id').limit(1).executeTakeFirst())
}
