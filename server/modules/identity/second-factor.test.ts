import { describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { PASSWORD, useModuleApi } from '../../../tests/integration/module-api.ts'
import { Role } from './permissions.ts'
import { codeStep, issueChallenge, readChallenge, seal, totpCode, unseal } from './second-factor.ts'
import { decodeJwt } from './tokens.ts'

// Two-factor sign-in (decision 260): RFC 6238 codes, the sealed secret, the signed challenge; then
// the API on both databases: set up, confirm, sign in in two steps, no replay, recovery codes once,
// attempts limited, off with password and code, and a SuperAdmin held to setting it up.
const SECRET = 'a'.repeat(40)

describe('second factor pieces', () => {
  test('a code is right for its step and the ones beside it, and nothing else', () => {
    const base32 = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
    const t = 1_800_000_000_000
    const step = Math.floor(t / 30_000)
    expect(codeStep(base32, totpCode(base32, t), t)).toBe(step)
    expect(codeStep(base32, totpCode(base32, t + 30_000), t)).toBe(step + 1)
    expect(codeStep(base32, totpCode(base32, t - 30_000), t)).toBe(step - 1)
    expect(codeStep(base32, totpCode(base32, t + 90_000), t)).toBeNull()
    // RFC 6238 appendix B, SHA-1 at T = 59 s: 94287082 (its last six digits with 6-digit codes).
    expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000)).toBe('287082')
  })

  test('a sealed secret opens only with its key, and a challenge only unchanged and in time', () => {
    const sealed = seal(SECRET, 'JBSWY3DPEHPK3PXP')
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP')
    expect(unseal(SECRET, sealed)).toBe('JBSWY3DPEHPK3PXP')
    expect(() => unseal('b'.repeat(40), sealed)).toThrow()
    const { challenge } = issueChallenge(SECRET, { userId: 7, provider: 'local' }, 1_000_000)
    expect(readChallenge(SECRET, challenge, 1_000_000)).toEqual({ userId: 7, provider: 'local' })
    expect(readChallenge(SECRET, challenge.replace('c1.7.', 'c1.8.'), 1_000_000)).toBeNull()
    expect(readChallenge('b'.repeat(40), challenge, 1_000_000)).toBeNull()
    expect(readChallenge(SECRET, challenge, 1_000_000 + 6 * 60_000)).toBeNull()
  })
})

for (const dialect of portableDialects) {
  describe(`two-factor sign-in on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: `twofactor-${dialect}`, addressBlock: 61 })

    const login = (email: string) =>
      s.t.call('POST', 'identity/login', { body: { email, password: PASSWORD } })
    const second = (challenge: string, code: string) =>
      s.t.call('POST', 'identity/login/second-factor', { body: { challenge, code } })

    test('set up, confirm, sign in with a code once, recovery codes once, then off', async () => {
      const me = await s.t.user('freelancer')
      expect((await s.t.call('GET', 'identity/two-factor', { token: me.token })).json).toMatchObject({
        enabled: false,
        required: false,
        setup: null,
      })
      const setup = await s.t.call('POST', 'identity/two-factor/setup', { token: me.token })
      expect(setup.status).toBe(200)
      const secret = setup.json.setup.secret as string
      expect(setup.json.setup.otpauthUrl).toContain(`secret=${secret}`)
      expect(setup.json.setup.qrSvg).toMatch(/^<svg/)
      // The stored column is sealed.
      const row = await s.database.db
        .selectFrom('user_second_factor')
        .select('secret')
        .where('user_id', '=', me.id)
        .executeTakeFirstOrThrow()
      expect(row.secret).not.toContain(secret)

      expect(
        (
          await s.t.call('POST', 'identity/two-factor/enable', {
            token: me.token,
            body: { code: '000000' === totpCode(secret) ? '111111' : '000000' },
          })
        ).json.errors,
      ).toHaveProperty('code')
      const enableCode = totpCode(secret)
      const enabled = await s.t.call('POST', 'identity/two-factor/enable', {
        token: me.token,
        body: { code: enableCode },
      })
      expect(enabled.status).toBe(200)
      const recovery = enabled.json.recoveryCodes as string[]
      expect(recovery).toHaveLength(10)
      expect(new Set(recovery).size).toBe(10)
      // The session was rotated: the old token is refused, the new one works.
      expect((await s.t.call('GET', 'identity/profile', { token: me.token })).status).toBe(401)
      const status = await s.t.call('GET', 'identity/two-factor', { token: enabled.json.token })
      expect(status.json).toMatchObject({ enabled: true, recoveryCodesLeft: 10, setup: null })
      expect(JSON.stringify(status.json)).not.toContain(secret)

      // Sign-in: the password gives a challenge, never a token.
      const first = await login(me.email)
      expect(first.status).toBe(200)
      expect(first.json).toMatchObject({ twoFactorRequired: true })
      expect(first.json.token).toBeUndefined()
      // The code that turned it on was spent: no replay in its window.
      expect((await second(first.json.challenge, enableCode)).status).toBe(400)
      const next = totpCode(secret, Date.now() + 30_000)
      const done = await second(first.json.challenge, next)
      expect(done.status).toBe(200)
      expect((await s.t.call('GET', 'identity/profile', { token: done.json.token })).json.id).toBe(me.id)
      expect((await second((await login(me.email)).json.challenge, next)).status).toBe(400)

      // A recovery code works once, whatever its spelling.
      const withRecovery = await second(
        (await login(me.email)).json.challenge,
        recovery[0].toUpperCase().replace('-', ' '),
      )
      expect(withRecovery.status).toBe(200)
      expect((await second((await login(me.email)).json.challenge, recovery[0])).status).toBe(400)
      expect(
        (await s.t.call('GET', 'identity/two-factor', { token: withRecovery.json.token })).json
          .recoveryCodesLeft,
      ).toBe(9)

      // Off: the password and a code.
      const token = withRecovery.json.token as string
      expect(
        (
          await s.t.call('POST', 'identity/two-factor/disable', {
            token,
            body: { password: 'wrong password here', code: recovery[1] },
          })
        ).json.errors,
      ).toHaveProperty('password')
      expect(
        (
          await s.t.call('POST', 'identity/two-factor/disable', {
            token,
            body: { password: PASSWORD, code: recovery[1] },
          })
        ).json.enabled,
      ).toBe(false)
      expect((await login(me.email)).json.token).toEqual(expect.any(String))
    })

    test('wrong codes are limited per account, and a bad challenge starts over', async () => {
      const me = await s.t.user('client')
      const { json } = await s.t.call('POST', 'identity/two-factor/setup', { token: me.token })
      await s.t.call('POST', 'identity/two-factor/enable', {
        token: me.token,
        body: { code: totpCode(json.setup.secret) },
      })
      const { challenge } = (await login(me.email)).json
      const statuses = []
      for (let i = 0; i < 7; i++) statuses.push((await second(challenge, 'zzzzz-zzzzz')).status)
      expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429])
      expect((await second(`${challenge}x`, '123456')).json.errors).toHaveProperty('challenge')
    })

    test('a SuperAdmin without a second factor may only set one up; with it, the admin API opens', async () => {
      const me = await s.t.user('client', 'Ada', 'Admin')
      await s.database.db
        .updateTable('user_role')
        .set({ role: Role.SuperAdmin })
        .where('user_id', '=', me.id)
        .execute()
      const first = await login(me.email)
      expect(decodeJwt(first.json.token)?.mfa).toBe('setup')
      const refused = await s.t.call('GET', 'Admin/complaints', { token: first.json.token })
      expect(refused.status).toBe(403)
      expect(refused.json.title).toBe('Two-Factor Setup Required')
      expect((await s.t.call('GET', 'notifications', { token: first.json.token })).status).toBe(403)
      expect((await s.t.call('GET', 'identity/profile', { token: first.json.token })).status).toBe(200)
      // Every page asks who the session is: a setup-only session's pages too.
      expect((await s.t.call('GET', 'identity/session', { token: first.json.token })).status).toBe(200)
      const setup = await s.t.call('POST', 'identity/two-factor/setup', { token: first.json.token })
      const on = await s.t.call('POST', 'identity/two-factor/enable', {
        token: first.json.token,
        body: { code: totpCode(setup.json.setup.secret) },
      })
      expect(decodeJwt(on.json.token)?.mfa).toBeUndefined()
      expect((await s.t.call('GET', 'Admin/complaints', { token: on.json.token })).status).toBe(200)
      expect(
        (
          await s.t.call('POST', 'identity/two-factor/disable', {
            token: on.json.token,
            body: { password: PASSWORD, code: on.json.recoveryCodes[0] },
          })
        ).status,
      ).toBe(403)
      // The test helper's SuperAdmin signs in through both steps.
      const helper = await s.t.admin()
      expect((await s.t.call('GET', 'Admin/complaints', { token: helper.token })).status).toBe(200)
    })
  })
}
