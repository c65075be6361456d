import type { Db } from '#server/db/database.ts'
import { moduleTestApi, useModuleApi } from '../../integration/module-api.ts'
import type { TestDialect } from '../../integration/databases.ts'

// Test helpers for the projects API: signed-in users of each kind (a freelancer with a listed
// profile) and JSON/multipart calls through the in-process handler.
export { PASSWORD, tinyPdf } from '../../integration/module-api.ts'

const options = { name: 'projects', addressBlock: 9, freelancerTitle: 'Structural engineer' }
export const projectsTestApi = (database: Db, dataDir?: string) =>
  moduleTestApi(database, { ...options, dataDir })
/** A describe block's database and projects API (`s.t`), made before its tests and dropped after them. */
export const useProjects = (dialect: TestDialect, dataDir?: string) =>
  useModuleApi(dialect, { ...options, dataDir })
