import type { Db } from '../../db/database.ts'
import { moduleTestApi } from '../../../tests/integration/module-api.ts'

// Test helpers for the projects API: signed-in users of each kind (a freelancer with a listed
// profile) and JSON/multipart calls through the in-process handler.
export { PASSWORD, tinyPdf } from '../../../tests/integration/module-api.ts'

export const projectsTestApi = (database: Db, dataDir?: string) => moduleTestApi(database, { name: 'projects', addressBlock: 9, dataDir, freelancerTitle: 'Structural engineer' })

