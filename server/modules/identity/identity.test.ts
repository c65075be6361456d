import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi, type Api } from '#server/api/index.ts'
import { loadConfig } from '#server/config.ts'
import { createLogger } from '#server/log.ts'
import { portableDialects, useTestDatabase } from '../../../tests/integration/databases.ts'
import { linkIn, startSmtpServer } from '../../../tests/support/smtp.ts'
import { signInAtProvider, startOidcProvider } from '../../../tests/support/oidc-provider.ts'
import { decodeJwt } from './tokens.ts'
import { rememberDevice } from './devices.ts'
import { Role } from './permissions.ts'
import { totpCode } from './second-factor.ts'

// The identity API end to end on both databases: real SMTP delivery, a real OpenID provider.
const CLAIMS = [
  'id',
  'firstName',
  'lastName',
  'name',
  'imageUrl',
  'email',
  'status',
  'phoneNumber',
  'roles',
  'wengazPoint',
  'wengazPercentage',
  'Provider',
]
const SESSION_CLAIMS = ['id', 'firstName', 'lastName', 'name', 'imageUrl', 'roles']
const GOOD = 'correct horse battery staple'

describe.each(portableDialects)('identity on %s', (dialect) => {
  const s = useTestDatabase(dialect)
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let oidc: Awaited<ReturnType<typeof startOidcProvider>>
  let api: Api
  let ipCounter = 0
  const callbackUri = 'http://127.0.0.1:9/auth/oidc/callback'

  beforeAll(async () => {
    smtp = await startSmtpServer()
    oidc = await startOidcProvider({ redirectUris: [callbackUri] })
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SMTP_URL: smtp.url, ...oidc.env })
    api = createApi({
      database: s.database,
      log: createLogger('silent'),
      config,
      limits: {
        loginEmail: { name: 'login:email', limit: 4, windowMs: 60_000 },
        loginDevice: { name: 'login:device', limit: 3, windowMs: 60_000 },
        loginIp: { name: 'login:ip', limit: 12, windowMs: 60_000 },
      },
    })
    // Mails go out as the server sends them: the outbox worker, started, wakes on each commit.
    api.jobs.outbox.start()
  })
  afterAll(async () => {
    await api?.jobs.close()
    await smtp?.close()
    await oidc?.close()
  })

  async function call(
    method: string,
    path: string,
    init: { body?: unknown; token?: string; ip?: string } = {},
  ) {
    const headers = new Headers({ accept: 'application/json' })
    if (init.body !== undefined) headers.set('content-type', 'application/json')
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    const response = await api.handler(
      new Request(`http://127.0.0.1:3999/api/v1/${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
      {
        ip: init.ip ?? `10.9.0.${++ipCounter % 250}`,
      },
    )
    const text = await response.text()
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined }
  }

  async function signUp(
    kind: 'client' | 'company' | 'freelancer',
    email: string,
    extra: Record<string, unknown> = {},
  ) {
    const r = await call('POST', 'identity/register', {
      body: {
        accountType: kind,
        firstName: 'Ada',
        lastName: 'Lovelace',
        companyName: kind === 'company' ? 'Lovelace Engineering' : undefined,
        email,
        password: GOOD,
        acceptTerms: true,
        ...extra,
      },
    })
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/verify-email'))
    return new URL(linkIn(mail, '/auth/verify-email')).searchParams.get('token')!
  }

  async function activeUser(
    kind: 'client' | 'company' | 'freelancer',
    email: string,
    extra: Record<string, unknown> = {},
  ) {
    const token = await signUp(kind, email, extra)
    expect((await call('GET', `identity/verify-email?token=${token}`)).status).toBe(200)
    const login = await call('POST', 'identity/login', { body: { email, password: GOOD } })
    expect(login.status, JSON.stringify(login.json)).toBe(200)
    return login.json as { token: string; user: Record<string, unknown> }
  }

  it('signs up each kind, mails the verification link, and logs in only after verification', async () => {
    for (const [kind, role] of [
      ['client', Role.Client],
      ['company', Role.Company],
      ['freelancer', Role.Freelancer],
    ] as const) {
      const email = `${kind}@${dialect}.test`
      const token = await signUp(kind, email, { language: 'de' })
      const mail = smtp.mails.find((m) => m.to.includes(email))!
      expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für Workneer')
      expect(mail.text).toContain('Hallo Ada,')

      const early = await call('POST', 'identity/login', { body: { email, password: GOOD } })
      expect(early.status).toBe(403)
      expect(early.json.title).toBe('Email Not Verified')

      const verified = await call('GET', `identity/verify-email?token=${token}`)
      expect(verified.status).toBe(200)
      expect(verified.json.message).toMatch(/confirmed/)
      // single use
      const again = await call('GET', `identity/verify-email?token=${token}`)
      expect(again.status).toBe(400)
      expect(again.json.detail).toBe('Invalid or expired token')

      const login = await call('POST', 'identity/login', {
        body: { email: email.toUpperCase(), password: GOOD },
      })
      expect(login.status).toBe(200)
      const claims = decodeJwt(login.json.token)!
      expect(Object.keys(claims).sort()).toEqual([...CLAIMS, 'sid', 'iat', 'exp'].sort())
      expect(claims).toMatchObject({
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        email,
        status: 'Active',
        roles: [role],
        Provider: 'local',
        imageUrl: null,
        phoneNumber: null,
        wengazPoint: 10,
        wengazPercentage: 50,
      })
      expect(login.json.user).toEqual(Object.fromEntries(CLAIMS.map((k) => [k, claims[k]])))

      const me = await call('GET', 'identity/profile', { token: login.json.token })
      expect(me.status).toBe(200)
      expect(me.json).toEqual(login.json.user)
      // What every page's top bar asks: the same person, without the points and completeness.
      const session = await call('GET', 'identity/session', { token: login.json.token })
      expect(session.json).toEqual(Object.fromEntries(SESSION_CLAIMS.map((k) => [k, login.json.user[k]])))
    }
  })

  it('answers bad input with a 400 naming each field, and creates nothing', async () => {
    const before = await s.database.db
      .selectFrom('app_user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    const r = await call('POST', 'identity/register', {
      body: { accountType: 'boss', firstName: '', email: 'not-an-email', password: 'x', acceptTerms: false },
    })
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ status: 400, title: 'Invalid Info' })
    // The sign-up form's schema: every field at once, the password policy included.
    expect(Object.keys(r.json.errors).sort()).toEqual([
      'acceptTerms',
      'accountType',
      'email',
      'firstName',
      'lastName',
      'password',
    ])
    expect(r.json.detail).toContain('email: Enter a valid email address.')

    const weak = await call('POST', 'identity/register', {
      body: {
        accountType: 'client',
        firstName: 'A',
        lastName: 'B',
        email: 'weak@x.test',
        password: 'password123',
        acceptTerms: true,
      },
    })
    expect(weak.status).toBe(400)
    expect(weak.json.errors).toEqual({
      password: ['This password is too common. Choose one that is harder to guess.'],
    })
    const company = await call('POST', 'identity/register', {
      body: {
        accountType: 'company',
        firstName: 'A',
        lastName: 'B',
        email: 'co@x.test',
        password: GOOD,
        acceptTerms: true,
      },
    })
    expect(company.json.errors).toEqual({ companyName: ['Enter the company name.'] })

    const after = await s.database.db
      .selectFrom('app_user')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('answers an unknown email and a wrong password the same way, in about the same time', async () => {
    await activeUser('client', `same@${dialect}.test`)
    const timed = async (email: string) => {
      const t = performance.now()
      const r = await call('POST', 'identity/login', { body: { email, password: 'wrong password!' } })
      return { ms: performance.now() - t, status: r.status, body: { ...r.json, requestId: undefined } }
    }
    const a = await timed(`same@${dialect}.test`)
    const b = await timed(`nobody@${dialect}.test`)
    expect(a.status).toBe(401)
    expect(b).toMatchObject({ status: 401, body: a.body })
    expect(a.body.detail).toBe('Invalid email or password')
    // Both cost one argon2 verification; allow generous noise but not a missing hash (~0 ms).
    expect(b.ms).toBeGreaterThan(a.ms / 3)
    // A second registration of a known address answers as the first and mails the owner instead.
    const dup = await call('POST', 'identity/register', {
      body: {
        accountType: 'freelancer',
        firstName: 'X',
        lastName: 'Y',
        email: `same@${dialect}.test`,
        password: GOOD,
        acceptTerms: true,
      },
    })
    expect(dup.status).toBe(200)
    await smtp.waitFor(`same@${dialect}.test`, (m) => m.subject.startsWith('Someone tried to sign up'))
  })

  it('rejects a revoked session with 401: logout, suspension, password change', async () => {
    const email = `revoke@${dialect}.test`
    const first = await activeUser('freelancer', email)
    const second = (await call('POST', 'identity/login', { body: { email, password: GOOD } })).json
    expect((await call('POST', 'identity/logout', { token: first.token })).status).toBe(200)
    expect((await call('GET', 'identity/profile', { token: first.token })).status).toBe(401)
    expect((await call('GET', 'identity/session', { token: first.token })).status).toBe(401)
    expect((await call('GET', 'identity/profile', { token: second.token })).status).toBe(200)

    const changed = await call('POST', 'identity/change-password', {
      token: second.token,
      body: { currentPassword: GOOD, newPassword: 'another long passphrase' },
    })
    expect(changed.status).toBe(200)
    expect((await call('GET', 'identity/profile', { token: second.token })).status).toBe(401)
    expect((await call('GET', 'identity/profile', { token: changed.json.token })).status).toBe(200)

    await api.services.identity.setStatus(s.database.db, changed.json.user.id, 'Suspended')
    expect((await call('GET', 'identity/profile', { token: changed.json.token })).status).toBe(401)
    expect((await call('GET', 'identity/session', { token: changed.json.token })).status).toBe(401)
    const suspended = await call('POST', 'identity/login', {
      body: { email, password: 'another long passphrase' },
    })
    expect(suspended.status).toBe(403)
    expect(suspended.json.title).toBe('Account Suspended')

    // a forged or tampered token is refused too
    const [h, p] = changed.json.token.split('.')
    expect((await call('GET', 'identity/profile', { token: `${h}.${p}.AAAA` })).status).toBe(401)
  })

  it('limits login attempts per address with 429 and Retry-After', async () => {
    const email = `limit@${dialect}.test`
    let last
    for (let i = 0; i < 5; i++)
      last = await call('POST', 'identity/login', { body: { email, password: 'wrong wrong wrong' } })
    expect(last!.status).toBe(429)
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(last!.json.title).toBe('Too Many Requests')
  })

  it("a stranger's guesses lock out unknown devices only: the owner's remembered devices still sign in", async () => {
    const email = `owned@${dialect}.test`
    const first = (await activeUser('client', email)) as unknown as {
      deviceToken: string
      user: { id: number }
    }
    const second = await call('POST', 'identity/login', { body: { email, password: GOOD } })
    const [laptop, phone] = [first.deviceToken, second.json.deviceToken as string]
    expect(laptop).toMatch(/^d1\.\d+\./)
    expect(phone.split('.')[2]).not.toBe(laptop.split('.')[2]) // two devices, two ids

    // The attacker guesses from a new address each time until the address's limit answers.
    const guesses = []
    for (let i = 0; i < 6; i++)
      guesses.push(await call('POST', 'identity/login', { body: { email, password: `guess number ${i}` } }))
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 401, 429, 429])
    expect(Number(guesses[5].headers.get('retry-after'))).toBeGreaterThan(0)

    // Any device that is not one of the owner's is refused, the right password or not: none, a
    // token of another account, a forged or expired one, one of another secret.
    const stranger = (await activeUser('client', `stranger@${dialect}.test`)) as unknown as {
      deviceToken: string
    }
    const { value: secret } = await s.database.db
      .selectFrom('app_secret')
      .select('value')
      .where('name', '=', 'jwt-hs256')
      .executeTakeFirstOrThrow()
    const [, , id, exp, sig] = laptop.split('.')
    for (const deviceToken of [
      undefined,
      stranger.deviceToken,
      `d1.${first.user.id}.${id}.${Number(exp) + 1}.${sig}`,
      rememberDevice(secret, first.user.id, id, Date.now() - 181 * 86_400_000),
      rememberDevice('another secret of at least thirty-two chars', first.user.id, id),
      'garbage',
    ]) {
      const r = await call('POST', 'identity/login', { body: { email, password: GOOD, deviceToken } })
      expect(r.status, String(deviceToken)).toBe(429)
      expect(r.json.title).toBe('Too Many Requests')
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    }

    // The owner's devices sign in, each keeping its id.
    const back = await call('POST', 'identity/login', {
      body: { email, password: GOOD, deviceToken: laptop },
    })
    expect(back.status, JSON.stringify(back.json)).toBe(200)
    expect(back.json.deviceToken.split('.')[2]).toBe(laptop.split('.')[2])
    expect((await call('GET', 'identity/profile', { token: back.json.token })).status).toBe(200)

    // A remembered device still has a limit of its own: its own wrong passwords stop it, not the phone.
    const typos = []
    for (let i = 0; i < 4; i++)
      typos.push(
        (
          await call('POST', 'identity/login', {
            body: { email, password: `typo ${i}`, deviceToken: laptop },
          })
        ).status,
      )
    expect(typos).toEqual([401, 401, 401, 429])
    const stopped = await call('POST', 'identity/login', {
      body: { email, password: GOOD, deviceToken: laptop },
    })
    expect(stopped.status).toBe(429)
    expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(
      (await call('POST', 'identity/login', { body: { email, password: GOOD, deviceToken: phone } })).status,
    ).toBe(200)

    // A new device of the owner's gets in after a password reset: the mail proved the owner.
    const since = smtp.mails.length
    expect((await call('POST', 'identity/forget-password', { body: { email } })).status).toBe(200)
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/reset-password'), 15_000, since)
    const token = new URL(linkIn(mail, '/auth/reset-password')).searchParams.get('token')!
    expect(
      (await call('POST', 'identity/Reset-Password', { body: { token, password: 'a fresh passphrase 7' } }))
        .status,
    ).toBe(200)
    expect(
      (await call('POST', 'identity/login', { body: { email, password: 'a fresh passphrase 7' } })).status,
    ).toBe(200)
  })

  it('still limits each client address, remembered device or not', async () => {
    const email = `busy@${dialect}.test`
    const owner = (await activeUser('freelancer', email)) as unknown as { deviceToken: string }
    const ip = '10.77.0.1'
    const statuses = []
    // Guesses at many addresses from one client, then the owner's own device from that client.
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await call('POST', 'identity/login', {
            ip,
            body: { email: `someone${i}@${dialect}.test`, password: 'not the password' },
          })
        ).status,
      )
    expect(statuses).toEqual(Array(12).fill(401))
    const refused = await call('POST', 'identity/login', {
      ip,
      body: { email, password: GOOD, deviceToken: owner.deviceToken },
    })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another client is not affected, and the device is still recognised there (same device id).
    const elsewhere = await call('POST', 'identity/login', {
      ip: '10.77.0.2',
      body: { email, password: GOOD, deviceToken: owner.deviceToken },
    })
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.json.deviceToken.split('.')[2]).toBe(owner.deviceToken.split('.')[2])
  })

  it('resets a forgotten password from the mail and ends every session', async () => {
    const email = `forgot@${dialect}.test`
    const session = await activeUser('company', email, { language: 'ru' })
    const since = smtp.mails.length
    const r = await call('POST', 'identity/forget-password', { body: { email } })
    const unknown = await call('POST', 'identity/forget-password', {
      body: { email: `ghost@${dialect}.test` },
    })
    expect(r.status).toBe(200)
    expect(unknown.json.message).toBe(r.json.message)
    const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/reset-password'), 15_000, since)
    expect(mail.subject).toBe('Сброс пароля Workneer')
    const token = new URL(linkIn(mail, '/auth/reset-password')).searchParams.get('token')!

    const weak = await call('POST', 'identity/Reset-Password', { body: { token, password: 'short' } })
    expect(weak.status).toBe(400)
    expect(weak.json.errors.password).toBeDefined()
    const ok = await call('POST', 'identity/Reset-Password', {
      body: { token, password: 'a brand new passphrase' },
    })
    expect(ok.status).toBe(200)
    expect(
      (await call('POST', 'identity/Reset-Password', { body: { token, password: 'a brand new passphrase' } }))
        .status,
    ).toBe(400)
    expect((await call('GET', 'identity/profile', { token: session.token })).status).toBe(401)
    expect(
      (await call('POST', 'identity/login', { body: { email, password: 'a brand new passphrase' } })).status,
    ).toBe(200)
  })

  it('updates the profile and computes points and completeness', async () => {
    const s = await activeUser('client', `profile@${dialect}.test`)
    const r = await call('PUT', 'identity/profile', {
      token: s.token,
      body: { firstName: 'Grace', lastName: 'Hopper', phoneNumber: '+1 555 0100', language: 'it' },
    })
    expect(r.status).toBe(200)
    expect(r.json.user).toMatchObject({
      name: 'Grace Hopper',
      phoneNumber: '+1 555 0100',
      wengazPoint: 15,
      wengazPercentage: 75,
    })
    expect(decodeJwt(r.json.token)!.name).toBe('Grace Hopper')
    const details = await call('GET', 'identity/profile-details', { token: r.json.token })
    expect(details.json).toMatchObject({
      language: 'it',
      accountType: 'client',
      emailVerified: true,
      hasPassword: true,
    })
    expect(details.json.permissions).toContain('projects.create')
    const bad = await call('PUT', 'identity/profile', {
      token: s.token,
      body: { firstName: 'G', lastName: 'H', phoneNumber: 'call me', language: 'fr' },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.json.errors).sort()).toEqual(['language', 'phoneNumber'])
  })

  it('only lets a SuperAdmin trigger a reset for another user', async () => {
    const victim = await activeUser('freelancer', `victim@${dialect}.test`)
    const other = await activeUser('client', `other@${dialect}.test`)
    expect(
      (await call('POST', `identity/${victim.user.id}/reset-password`, { token: other.token })).status,
    ).toBe(403)
    const { userId } = await api.services.identity.createAdmin({
      email: `admin@${dialect}.test`,
      firstName: 'Root',
      lastName: 'Admin',
      language: 'en',
    })
    const mail = await smtp.waitFor(`admin@${dialect}.test`, (m) => m.text.includes('/auth/reset-password'))
    const token = new URL(linkIn(mail, '/auth/reset-password')).searchParams.get('token')!
    expect(
      (await call('POST', 'identity/Reset-Password', { body: { token, password: 'admin passphrase 42' } }))
        .status,
    ).toBe(200)
    const admin = (
      await call('POST', 'identity/login', {
        body: { email: `admin@${dialect}.test`, password: 'admin passphrase 42' },
      })
    ).json
    expect(admin.user.roles).toEqual([Role.SuperAdmin])
    expect(admin.user.id).toBe(userId)
    // Decision 260: a SuperAdmin without a second factor may only set one up, then acts.
    expect(
      (await call('POST', `identity/${victim.user.id}/reset-password`, { token: admin.token })).status,
    ).toBe(403)
    const setup = await call('POST', 'identity/two-factor/setup', { token: admin.token })
    const full = await call('POST', 'identity/two-factor/enable', {
      token: admin.token,
      body: { code: totpCode(setup.json.setup.secret) },
    })
    expect(
      (await call('POST', `identity/${victim.user.id}/reset-password`, { token: full.json.token })).status,
    ).toBe(200)
    expect((await call('GET', 'identity/profile', { token: victim.token })).status).toBe(401)
    // An admin action: in the audit trail (decision 214), and the victim's hub connections end too.
    const audit = await s.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('object_id', '=', victim.user.id as number)
      .execute()
    expect(audit.map((a) => [a.actor_id, a.action, a.object_type])).toEqual([
      [userId, 'forceResetPassword', 'user'],
    ])
  })

  it('signs up and in through the OpenID provider', async () => {
    const providers = await call('GET', 'identity/third-part/providers')
    expect(providers.json.data).toEqual([{ id: 'loopback', name: 'Loopback ID' }])
    const start = await call('POST', 'identity/third-part/authorize', {
      body: { provider: 'loopback', redirectUri: callbackUri },
    })
    expect(start.status).toBe(200)
    const login = `oidc.${dialect}`
    const callbackUrl = await signInAtProvider(start.json.authorizationUrl, login)
    expect(callbackUrl.startsWith(callbackUri)).toBe(true)
    const first = await call('POST', 'identity/login-with-third-part', { body: { callbackUrl } })
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    expect(first.json).toMatchObject({
      status: 'registration-required',
      email: `${login}@example.test`,
      firstName: 'Oidc',
      lastName: 'Tester',
    })
    // the same callback cannot be replayed
    expect((await call('POST', 'identity/login-with-third-part', { body: { callbackUrl } })).json.title).toBe(
      'Failed',
    )

    const reg = await call('POST', 'identity/register-with-third-part', {
      body: {
        ticket: first.json.ticket,
        accountType: 'freelancer',
        firstName: 'Oidc',
        lastName: 'Tester',
        acceptTerms: true,
      },
    })
    expect(reg.status, JSON.stringify(reg.json)).toBe(200)
    expect(reg.json.user).toMatchObject({
      email: `${login}@example.test`,
      roles: [Role.Freelancer],
      Provider: 'loopback',
      status: 'Active',
    })

    const again = await call('POST', 'identity/third-part/authorize', {
      body: { provider: 'loopback', redirectUri: callbackUri },
    })
    const second = await call('POST', 'identity/login-with-third-part', {
      body: { callbackUrl: await signInAtProvider(again.json.authorizationUrl, login) },
    })
    expect(second.json).toMatchObject({ status: 'signed-in', user: { id: reg.json.user.id } })

    // With an authenticator app the provider's answer is the first step only (decision 260).
    const setup = await call('POST', 'identity/two-factor/setup', { token: second.json.token })
    await call('POST', 'identity/two-factor/enable', {
      token: second.json.token,
      body: { code: totpCode(setup.json.setup.secret) },
    })
    const third = await call('POST', 'identity/third-part/authorize', {
      body: { provider: 'loopback', redirectUri: callbackUri },
    })
    const asked = await call('POST', 'identity/login-with-third-part', {
      body: { callbackUrl: await signInAtProvider(third.json.authorizationUrl, login) },
    })
    expect(asked.json).toMatchObject({ status: 'two-factor-required', twoFactorRequired: true })
    expect(asked.json.token).toBeUndefined()
    const done = await call('POST', 'identity/login/second-factor', {
      body: { challenge: asked.json.challenge, code: totpCode(setup.json.setup.secret, Date.now() + 30_000) },
    })
    expect(done.json.user).toMatchObject({ id: reg.json.user.id, Provider: 'loopback' })

    const unknown = await call('POST', 'identity/third-part/authorize', {
      body: { provider: 'nope', redirectUri: callbackUri },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.json.errors.provider).toBeDefined()
  })
})
