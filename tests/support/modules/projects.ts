import type { Db } from '#server/db/database.ts'
import { moduleTestApi, useModuleApi, type ModuleTestApi } from '../../integration/module-api.ts'
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

type Person = { token: string }

/** A client's published fixed-price project and a freelancer's proposal for it (both answered 200); answers their ids. */
export async function projectWithProposal(
  t: ModuleTestApi,
  database: Db,
  client: Person,
  free: Person,
  title: string,
) {
  const sub = await database.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await t.call('POST', 'projects', {
    token: client.token,
    body: {
      title,
      description:
        'Calculations for a new timber roof over a two-storey house, with connection details and a short report.',
      subcategoryId: sub.id,
      budgetType: 'fixed',
      budgetMinor: 80000,
      currency: 'EUR',
      durationDays: 10,
      remote: true,
      publish: true,
    },
  })
  if (project.status !== 200) throw new Error(`project: ${project.status} ${project.text}`)
  const proposal = await t.call('POST', `projects/${project.json.id}/proposal`, {
    token: free.token,
    body: {
      coverLetter: 'I have calculated many timber roofs and can deliver the report within a week.',
      bidMinor: 75000,
      durationDays: 7,
    },
  })
  if (proposal.status !== 200) throw new Error(`proposal: ${proposal.status} ${proposal.text}`)
  return { projectId: project.json.id as number, proposalId: proposal.json.id as number }
}
