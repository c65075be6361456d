import { argon2Sync, randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { argon2id, stopPasswordThread } from './password-hashing.ts'
import { hashPassword, verifyPassword } from './passwords.ts'

// Passwords are hashed on a thread of their own (decision 356); these run the real thread.
afterAll(() => stopPasswordThread())

const small = { memory: 1024, passes: 1, parallelism: 1, tagLength: 32 }

describe('password hashing', () => {
  it('answers what argon2id answers on this thread, for each of several hashes at once', async () => {
    const salts = Array.from({ length: 5 }, () => randomBytes(16))
    const keys = await Promise.all(salts.map((salt, i) => argon2id(`password ${i}`, salt, small)))
    salts.forEach((salt, i) =>
      expect(keys[i]).toEqual(argon2Sync('argon2id', { message: `password ${i}`, nonce: salt, ...small })),
    )
  })

  it('stores the 19 MiB, two-pass profile and verifies it, and still verifies a 46 MiB one-pass hash', async () => {
    const stored = await hashPassword('correct horse battery staple')
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false)
    const salt = randomBytes(16)
    const old = argon2Sync('argon2id', {
      message: 'old one',
      nonce: salt,
      memory: 47_104,
      passes: 1,
      parallelism: 1,
      tagLength: 32,
    })
    const oldStored = `$argon2id$v=19$m=47104,t=1,p=1$${salt.toString('base64url')}$${old.toString('base64url')}`
    expect(await verifyPassword('old one', oldStored)).toBe(true)
  })

  it('refuses what argon2 refuses, and hashes again after the thread was stopped', async () => {
    await expect(argon2id('x', randomBytes(4), small)).rejects.toThrow(/argon2 failed/)
    await stopPasswordThread()
    const salt = randomBytes(16)
    expect(await argon2id('again', salt, small)).toEqual(
      argon2Sync('argon2id', { message: 'again', nonce: salt, ...small }),
    )
  })

  // The module tests' accounts use a cheaper profile (decision 351): a hash carries its parameters.
  it('verifies a cheaper test hash with its own parameters', async () => {
    const cheap = await hashPassword('correct horse battery staple', { memory: 1024, passes: 1 })
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
    expect(await verifyPassword('correct horse battery staple', cheap)).toBe(true)
    expect(await verifyPassword('wrong', cheap)).toBe(false)
  })
})
