import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { moduleTestApi, useModuleApi } from '../../../tests/integration/module-api.ts'
import { writeAccounts } from '../../../tests/support/accounts.ts'
import { signInAtProvider, startOidcProvider } from '../../../tests/support/oidc-provider.ts'
import { Role } from './permissions.ts'
import { enableForTests, totpCode } from './second-factor.ts'
import { decodeJwt } from './tokens.ts'

// Decision 260 through the OpenID provider: the provider's answer proves what a password proves and
// no more. An account with an authenticator app gets a challenge and no session until a code (or a
// recovery code, once); a SuperAdmin without an app gets a setup-only session, as with a password.
// A real provider (oidc-provider) on loopback; both databases.
const SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU'
const RECOVERY = ['oidc-recovery-01', 'oidc-recovery-02']
const callbackUri = 'http://127.0.0.1:9/auth/oidc/callback'

for (const dialect of portableDialects) {
  describe(`two-factor sign-in through the OpenID provider on ${dialect}`, () => {
    let oidc: Awaited<ReturnType<typeof startOidcProvider>>
    beforeAll(async () => {
      oidc = await startOidcProvider({ redirectUris: [callbackUri] })
    })
    afterAll(() => oidc?.close())
    const s = useModuleApi(dialect, () => ({
      name: `oidc2fa-${dialect}`,
      addressBlock: 62,
      env: { ...oidc.env, AUTH_SECRET: 's'.repeat(40) },
    }))

    /** The whole round trip at the provider, signing in there as `email`: the API's answer. */
    async function viaProvider(email: string, api = s.t) {
      const start = await api.call('POST', 'identity/third-part/authorize', {
        body: { provider: 'loopback', redirectUri: callbackUri },
      })
      return api.call('POST', 'identity/login-with-third-part', {
        body: { callbackUrl: await signInAtProvider(start.json.authorizationUrl, email) },
      })
    }
    /** The providers of the account's sessions, oldest first. */
    const sessions = async (userId: number) =>
      (
        await s.database.db
          .selectFrom('user_session')
          .select('provider')
          .where('user_id', '=', userId)
          .orderBy('created_at')
          .execute()
      ).map((s) => s.provider)
    const second = (challenge: string, code: string) =>
      s.t.call('POST', 'identity/login/second-factor', { body: { challenge, code } })

    test('an account with an app: a challenge and no session, a wrong code refused on its field, then the code or a recovery code once', async () => {
      const me = await s.t.user('company')
      await enableForTests(s.database.db, me.id, SECRET, RECOVERY, 's'.repeat(40))
      const before = await sessions(me.id)

      // First time: the provider vouches for the address, which links it; the code is still owed.
      const asked = await viaProvider(me.email)
      expect(asked.status, asked.text).toBe(200)
      expect(asked.json).toMatchObject({ status: 'two-factor-required', twoFactorRequired: true })
      expect(asked.json.token).toBeUndefined()
      expect(await sessions(me.id)).toEqual(before)

      const wrong = await second(asked.json.challenge, totpCode(SECRET) === '000000' ? '111111' : '000000')
      expect(wrong.status).toBe(400)
      expect(wrong.json.errors.code[0]).toMatch(/not a valid code/)
      expect(await sessions(me.id)).toEqual(before)
      const done = await second(asked.json.challenge, totpCode(SECRET))
      expect(done.status, done.text).toBe(200)
      expect(done.json.user.id).toBe(me.id)
      expect(await sessions(me.id)).toEqual([...before, 'loopback'])

      // Linked now: the same rule. A recovery code works once.
      const again = await viaProvider(me.email)
      expect(again.json.status).toBe('two-factor-required')
      expect((await second(again.json.challenge, RECOVERY[0])).status).toBe(200)
      const third = await viaProvider(me.email)
      expect((await second(third.json.challenge, RECOVERY[0])).json.errors).toHaveProperty('code')
      expect((await second(third.json.challenge, RECOVERY[1])).status).toBe(200)
    })

    test('a SuperAdmin without an app gets a setup-only session; with one, a challenge', async () => {
      const bare = await s.t.user('client', 'Ada', 'Admin')
      await s.database.db
        .updateTable('user_role')
        .set({ role: Role.SuperAdmin })
        .where('user_id', '=', bare.id)
        .execute()
      const setupOnly = await viaProvider(bare.email)
      expect(setupOnly.json.status).toBe('signed-in')
      expect(decodeJwt(setupOnly.json.token)?.mfa).toBe('setup')
      const refused = await s.t.call('GET', 'Admin/complaints', { token: setupOnly.json.token })
      expect(refused.status).toBe(403)
      expect(refused.json.title).toBe('Two-Factor Setup Required')

      const withApp = await s.t.user('client', 'Bo', 'Admin')
      await s.database.db
        .updateTable('user_role')
        .set({ role: Role.SuperAdmin })
        .where('user_id', '=', withApp.id)
        .execute()
      await enableForTests(s.database.db, withApp.id, SECRET, [], 's'.repeat(40))
      const asked = await viaProvider(withApp.email)
      expect(asked.json.status).toBe('two-factor-required')
      const done = await second(asked.json.challenge, totpCode(SECRET))
      expect((await s.t.call('GET', 'Admin/complaints', { token: done.json.token })).status).toBe(200)
    })

    // Without AUTH_SECRET the signing secret is read from the s.database at its first use. On SQLite
    // (one connection) that read, made inside the transaction that links the provider's identity,
    // waited for that very transaction: the first sign-in after a start, through a provider, hung.
    test("the first sign-in of a fresh server may be a provider's (the secret is read in the sign-in's transaction)", async () => {
      for (const [i, withFactor] of [false, true].entries()) {
        const fresh = moduleTestApi(s.database, {
          name: `oidc2fa-fresh-${dialect}`,
          addressBlock: 63 + i,
          env: oidc.env,
        })
        const email = `fresh-${i}.${dialect}@example.test`
        const [id] = await writeAccounts(
          s.database,
          [{ email, firstName: 'Fay', lastName: 'Fresh', roles: [Role.Client], accountType: 'client' }],
          'unused password 42',
        )
        if (withFactor) await enableForTests(s.database.db, id, SECRET)
        const answer = await Promise.race([
          viaProvider(email, fresh),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000)),
        ])
        expect(answer.json.status).toBe(withFactor ? 'two-factor-required' : 'signed-in')
        await fresh.close()
      }
    })
  })
}
