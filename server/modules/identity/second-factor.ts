import { appSecret } from '#server/db/app-secrets.ts'
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import type { Database } from '#server/db/schema.ts'
import { randomToken, sha256 } from './tokens.ts'

// Two-factor sign-in with an authenticator app (RFC 6238 TOTP: SHA-1, 6 digits, 30 s, the
// parameters every app understands) and ten single-use recovery codes (decision 260).

export const STEP_SECONDS = 30
export const RECOVERY_CODES = 10
export const CHALLENGE_MINUTES = 5
const ISSUER = 'Workneer'

const nowIso = () => new Date().toISOString()

/** The login secret kept in the database when AUTH_SECRET is unset: created once, shared by every instance. */
export const storedSecret = (db: Kysely<Database>) => appSecret(db, 'jwt-hs256', () => randomToken(48))

// Keys of their own, derived from the login secret, so a sealed secret or a challenge can never
// pass for a login or device token.
const keyFor = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(`workneer second factor ${purpose}`).digest()

/** AES-256-GCM: the stored column alone (a leaked table, a log line) does not give the secret away. */
export function seal(secret: string, base32: string) {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, 'seal'), iv)
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()])
  return `s1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`
}

export function unseal(secret: string, sealed: string) {
  const [version, iv, body, tag] = sealed.split('.')
  if (version !== 's1' || !iv || !body || !tag) throw new Error('unknown sealed secret')
  const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, 'seal'), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
}

export const newTotpSecret = () => new Secret({ size: 20 }).base32

const totpOf = (base32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: STEP_SECONDS,
    secret: Secret.fromBase32(base32),
  })

/** The code an authenticator shows at `timestamp` (tests, and the shell's SuperAdmin). */
export const totpCode = (base32: string, timestamp = Date.now()) => totpOf(base32).generate({ timestamp })

/**
 * The 30-second step a code belongs to, when it is right for the step before, this one or the
 * next (clocks drift); else null. The caller accepts a step only once.
 */
export function codeStep(base32: string, code: string, timestamp = Date.now()) {
  const delta = totpOf(base32).validate({ token: code, timestamp, window: 1 })
  return delta === null ? null : Math.floor(timestamp / 1000 / STEP_SECONDS) + delta
}

/** What the person scans or types: the otpauth:// address, as an SVG QR code drawn on the server. */
export async function enrolment(base32: string, email: string) {
  const uri = totpOf(base32, email).toString()
  // Loaded when someone sets up an app, not at start (decision 136: it brings a PNG encoder along).
  const { default: QRCode } = await import('qrcode')
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 208 })
  return { secret: base32, otpauthUrl: uri, qrSvg }
}

/** A code is typed by a person: spaces and dashes ignored, case too. */
export const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase()
export const isTotpShape = (code: string) => /^\d{6}$/.test(normalizeCode(code))

/** Ten recovery codes, shown once (`xxxxx-xxxxx`, 50 bits each), stored as SHA-256. */
export function newRecoveryCodes() {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  return Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10)
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('')
    return `${chars.slice(0, 5)}-${chars.slice(5)}`
  })
}
export const recoveryHash = (code: string) => sha256(`recovery:${normalizeCode(code)}`)

// The sign-in challenge: the password (or the provider) was right, a code is still owed. Signed,
// not stored: `c1.<user>.<provider>.<expiry>.<nonce>.<mac>`, valid CHALLENGE_MINUTES. A challenge
// is worth nothing without a code, each code is accepted once, and attempts are limited per account.
export interface Challenge {
  userId: number
  provider: string
}

export function issueChallenge(secret: string, challenge: Challenge, now = Date.now()) {
  const expires = Math.floor(now / 1000) + CHALLENGE_MINUTES * 60
  const body = `c1.${challenge.userId}.${Buffer.from(challenge.provider).toString('base64url')}.${expires}.${randomToken(12)}`
  return {
    challenge: `${body}.${createHmac('sha256', keyFor(secret, 'challenge')).update(body).digest('base64url')}`,
    expiresAt: new Date(expires * 1000).toISOString(),
  }
}

export function readChallenge(secret: string, token: string, now = Date.now()): Challenge | null {
  const parts = token.split('.')
  if (parts.length !== 6 || parts[0] !== 'c1' || token.length > 300) return null
  const expected = Buffer.from(
    createHmac('sha256', keyFor(secret, 'challenge')).update(parts.slice(0, 5).join('.')).digest('base64url'),
  )
  const given = Buffer.from(parts[5])
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const userId = Number(parts[1])
  if (!Number.isInteger(userId) || !(Number(parts[3]) > now / 1000)) return null
  return { userId, provider: Buffer.from(parts[2], 'base64url').toString() }
}

/**
 * Turns two-factor sign-in on for an account with a known secret, straight in the database: the
 * test servers' SuperAdmin (tests/e2e/shell-server.ts) and the API test helpers use it so their
 * sign-ins answer the second step like a person with an authenticator app.
 */
export async function enableForTests(
  db: Kysely<Database>,
  userId: number,
  base32: string,
  recoveryCodes: string[] = [],
  authSecret?: string,
) {
  const secret = authSecret ?? (await storedSecret(db))
  await db
    .insertInto('user_second_factor')
    .values({
      user_id: userId,
      secret: seal(secret, base32),
      enabled_at: nowIso(),
      last_step: 0,
      created_at: nowIso(),
    })
    .execute()
  for (const code of recoveryCodes)
    await db
      .insertInto('user_recovery_code')
      .values({ user_id: userId, code_hash: recoveryHash(code), used_at: null })
      .execute()
}
