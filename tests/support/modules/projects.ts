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
type Caller = Pick<ModuleTestApi, 'call'>

/** A client's brief as a test writes it unless it says otherwise: a timber roof's calculations. */
const TIMBER_ROOF = {
  title: 'Load calculations for a timber roof',
  description:
    'Calculations for a new timber roof over a two-storey house, with connection details and a short report.',
  budgetMinor: 80000,
  durationDays: 10,
}
type Brief = typeof TIMBER_ROOF

/** The brief of the benches' and the outbox load test's project. */
export const RETAINING_WALL: Brief = {
  title: 'Retaining wall for a sloping garden',
  description:
    'Design a 1.2 m retaining wall in reinforced concrete for a sloping garden, with drawings and calculations.',
  budgetMinor: 90000,
  durationDays: 14,
}

/** A client's published fixed-price project in structural engineering, remote, in euros; answers its id. */
export async function publishedProject(t: Caller, database: Db, client: Person, brief: Partial<Brief> = {}) {
  const sub = await database.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await t.call('POST', 'projects', {
    token: client.token,
    body: {
      ...TIMBER_ROOF,
      ...brief,
      subcategoryId: sub.id,
      budgetType: 'fixed',
      currency: 'EUR',
      remote: true,
      publish: true,
    },
  })
  if (project.status !== 200) throw new Error(`project: ${project.status} ${project.text}`)
  return project.json.id as number
}

/** A freelancer's proposal for a timber roof's project (a bid of 750.00 in 7 days); answers its id. */
export async function propose(t: Caller, projectId: number, freelancer: Person) {
  const proposal = await t.call('POST', `projects/${projectId}/proposal`, {
    token: freelancer.token,
    body: {
      coverLetter: 'I have calculated many timber roofs and can deliver the report within a week.',
      bidMinor: 75000,
      durationDays: 7,
    },
  })
  if (proposal.status !== 200) throw new Error(`proposal: ${proposal.status} ${proposal.text}`)
  return proposal.json.id as number
}

/** A client's published fixed-price project and a freelancer's proposal for it; answers their ids. */
export async function projectWithProposal(
  t: ModuleTestApi,
  database: Db,
  client: Person,
  free: Person,
  title: string,
) {
  const projectId = await publishedProject(t, database, client, { title })
  return { projectId, proposalId: await propose(t, projectId, free) }
}
