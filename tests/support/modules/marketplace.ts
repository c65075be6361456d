import { beforeAll } from 'vitest'
import type { Db } from '#server/db/database.ts'
import type { ModuleTestApi } from '../../integration/module-api.ts'
import { structural } from './alerts.ts'

type Kind = 'client' | 'company' | 'freelancer'
type User = Awaited<ReturnType<ModuleTestApi['user']>>

/**
 * The people of a module's tests and the catalogue's structural engineering subcategory, made once
 * before the tests of the describe block that calls it: `people` names each by its key, with its kind
 * and name (`{ client: ['client', 'Clara', 'Client'], fred: ['freelancer', 'Fred', 'Freelancer'] }`).
 * The answer is filled in before the first test: read `m.client`, `m.cat.sub.id` inside tests.
 */
export function useMarketplace<const P extends Record<string, readonly [Kind, string, string]>>(
  s: { t: ModuleTestApi; database: Db },
  people: P,
) {
  const m = {} as { [K in keyof P]: User } & { cat: Awaited<ReturnType<typeof structural>> }
  beforeAll(async () => {
    m.cat = await structural(s.database)
    for (const [key, [kind, first, last]] of Object.entries(people))
      (m as Record<string, User>)[key] = await s.t.user(kind, first, last)
  }, 60_000)
  return m
}
