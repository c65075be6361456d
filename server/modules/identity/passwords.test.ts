import { expect, test } from 'vitest'
import { hashPassword, verifyPassword } from './passwords.ts'

// The product hashes with its own profile (46 MiB, 1 pass, decision 304); the module tests' accounts
// use a cheaper one (decision 351), which verifies because a hash carries its parameters.
test('a password is hashed with the product profile and verifies; a cheaper test hash verifies with its own', async () => {
  const stored = await hashPassword('correct horse battery staple')
  expect(stored).toMatch(/^\$argon2id\$v=19\$m=47104,t=1,p=1\$[\w-]{22}\$[\w-]{43}$/)
  expect(await verifyPassword('correct horse battery staple', stored)).toBe(true)
  expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false)
  const cheap = await hashPassword('correct horse battery staple', { memory: 1024 })
  expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
  expect(await verifyPassword('correct horse battery staple', cheap)).toBe(true)
  expect(await verifyPassword('wrong', cheap)).toBe(false)
})
