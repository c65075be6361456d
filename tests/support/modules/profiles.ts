import type { Db } from '#server/db/database.ts'
import { moduleTestApi, useModuleApi } from '../../integration/module-api.ts'
import type { TestDialect } from '../../integration/databases.ts'

// Test helpers for the profiles API: active users of each kind, signed in through identity/login.
export { PASSWORD, tinyPdf, tinyPng, tinyXlsx } from '../../integration/module-api.ts'

const options = { name: 'profiles', addressBlock: 7 }
export const profilesTestApi = (database: Db) => moduleTestApi(database, options)
/** A describe block's database and profiles API (`s.t`), made before its tests and dropped after them. */
export const useProfiles = (dialect: TestDialect) => useModuleApi(dialect, options)
