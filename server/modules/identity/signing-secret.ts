import type { Kysely } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Trx } from './context.ts'
import { storedSecret } from './second-factor.ts'

/**
 * The secret that signs login tokens: AUTH_SECRET when set, else one stored in the database and
 * shared by every instance, read once. Inside a transaction the secret is read through it: SQLite
 * has one connection, and a read on `db` would wait for the very transaction asking (a fresh
 * server's first sign-in through a provider hung so). That read is not kept: the transaction that
 * wrote the secret may roll back.
 */
export function createSigningSecret(db: Kysely<Database>, configured?: string) {
  let secret: Promise<string> | undefined
  return (executor: Trx = db) => {
    if (configured) return Promise.resolve(configured)
    if (!secret && executor !== db) return storedSecret(executor)
    return (secret ??= storedSecret(db).catch((error) => {
      secret = undefined
      throw error
    }))
  }
}
