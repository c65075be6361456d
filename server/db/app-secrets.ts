import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from './schema.ts'

type Executor = Kysely<Database> | Transaction<Database>

/** 32 random bytes as base64url: the value of most of the installation's secrets. */
export const randomKey = () => randomBytes(32).toString('base64url')

/**
 * One of the installation's secrets (a signing key, a key pair): made the first time it is asked
 * for and kept in `app_secret`, so every instance shares it. Two first asks at once keep one: the
 * insert that loses does nothing, and both read the row that won.
 */
export async function appSecret(executor: Executor, name: string, make: () => string = randomKey) {
  const find = () =>
    executor.selectFrom('app_secret').select('value').where('name', '=', name).executeTakeFirst()
  const found = await find()
  if (found) return found.value
  await executor
    .insertInto('app_secret')
    .values({ name, value: make(), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  return (await find())!.value
}
