import type { Db } from '../../db/database.ts'
import { moduleTestApi } from '../../../tests/integration/module-api.ts'

// Test helpers for the profiles API: active users of each kind, signed in through identity/login.
export { PASSWORD, tinyPdf, tinyPng, tinyXlsx } from '../../../tests/integration/module-api.ts'

export const profilesTestApi = (database: Db) => moduleTestApi(database, { name: 'profiles', addressBlock: 7 })
