import { randomBytes, timingSafeEqual } from 'node:crypto'
import { ApiError } from '#server/api/errors.ts'
import { argon2id, type Argon2Params } from './password-hashing.ts'
import { passwordProblem, PASSWORD_MAX, PASSWORD_MIN, type PasswordProblem } from './password-policy.ts'

// Passwords are hashed with argon2id and stored as a PHC string, so the parameters can change
// without breaking stored hashes. The profile is OWASP's 19 MiB and 2 passes (decision 356, which
// supersedes 305's 46 MiB and 1 pass): hashed on the one password thread, its block stays in that
// thread's memory and is used again, where a 46 MiB block was mapped and faulted in afresh for each
// hash, seven times the CPU (about 300 ms against 40 per sign-in).
const PARAMS: Argon2Params = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 }

/** `params` other than the product's are for test accounts only (decision 351): a hash carries its own. */
export async function hashPassword(password: string, params: Partial<typeof PARAMS> = {}) {
  const p = { ...PARAMS, ...params }
  const salt = randomBytes(16)
  const key = await argon2id(password, salt, p)
  return `$argon2id$v=19$m=${p.memory},t=${p.passes},p=${p.parallelism}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

export async function verifyPassword(password: string, stored: string) {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored)
  if (!m) return false
  const expected = Buffer.from(m[5], 'base64url')
  const key = await argon2id(password, Buffer.from(m[4], 'base64url'), {
    memory: Number(m[1]),
    passes: Number(m[2]),
    parallelism: Number(m[3]),
    tagLength: expected.length,
  })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

// An unknown address still costs one argon2 verification, so it answers in the same time as a
// wrong password (no account discovery through timing).
let dummy: Promise<string> | undefined
export function dummyHash() {
  return (dummy ??= hashPassword(randomBytes(18).toString('base64url')))
}

const passwordText: Record<PasswordProblem, string> = {
  tooShort: `must be at least ${PASSWORD_MIN} characters`,
  tooLong: `must be at most ${PASSWORD_MAX} characters`,
  common: 'is too common; choose one that is harder to guess',
  sameAsEmail: 'must not be your email address',
}

/** Refuses a new password that breaks the policy the forms show, with a 400 naming the field. */
export function checkPassword(field: string, password: string, email?: string) {
  const problem = passwordProblem(password, email)
  if (problem)
    throw new ApiError(400, 'Invalid Info', `${field}: ${passwordText[problem]}`, {
      [field]: [passwordText[problem]],
    })
}
