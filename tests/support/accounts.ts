import type { Db } from '#server/db/database.ts'
import { hashPassword } from '#server/modules/identity/passwords.ts'
import { totpCode } from '#server/modules/identity/second-factor.ts'

// Accounts written straight into a migrated database, active and verified, for tests and benches
// that need people without going through sign-up mail (the e2e shell server, the load run).
export interface Account {
  email: string
  firstName: string
  lastName: string
  roles: number[]
  accountType: 'client' | 'company' | 'freelancer'
  imageFileId?: number
}

/** Writes `accounts` (one password for all) and answers their ids in the same order. */
export async function writeAccounts(db: Db, accounts: readonly Account[], password: string) {
  const now = new Date().toISOString()
  const hash = await hashPassword(password)
  const ids: number[] = []
  for (const a of accounts) {
    const { id } = await db.db
      .insertInto('app_user')
      .values({
        email: a.email,
        email_verified: 1,
        password_hash: hash,
        first_name: a.firstName,
        last_name: a.lastName,
        account_type: a.accountType,
        status: 'Active',
        language: 'en',
        provider: 'local',
        image_file_id: a.imageFileId ?? null,
        created_at: now,
        updated_at: now,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const role of a.roles) await db.db.insertInto('user_role').values({ user_id: id, role }).execute()
    ids.push(id)
  }
  return ids
}

/** Signs an account with an authenticator app of `secret` in through the API's two steps: its session token. */
export async function signInWithCode(
  base: string,
  account: { email: string; password: string },
  secret: string,
) {
  const post = (url: string, body: unknown) =>
    fetch(`${base}/api/v1/${url}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }).then((r) => r.json() as Promise<{ challenge?: string; token?: string }>)
  const { challenge } = await post('identity/login', { email: account.email, password: account.password })
  const { token } = await post('identity/login/second-factor', { challenge, code: totpCode(secret) })
  if (!token) throw new Error(`the second step of ${account.email}'s sign-in failed`)
  return token
}
