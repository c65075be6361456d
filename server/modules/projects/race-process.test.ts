import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { useProjects } from '../../../tests/support/modules/projects.ts'

// SQLite across processes: two Node processes on one s.database file accept two different proposals
// of one project at the same moment. BEGIN IMMEDIATE makes one wait for the other; exactly one
// contract comes out. (PostgreSQL's concurrency is covered in projects.test.ts with two pools.)
const run = promisify(execFile)
const child = path.resolve(import.meta.dirname, '../../../tests/support/race-child.ts')
const node = path.resolve(import.meta.dirname, '../../../node_modules/.bin/node')

const s = useProjects('sqlite')

test('two processes accept two proposals of one project at once: one contract', async () => {
  const sub = await s.database.db
    .selectFrom('subcategory')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow()
  const client = await s.t.user('client')
  const [f1, f2] = [await s.t.user('freelancer'), await s.t.user('freelancer')]
  const results: number[][] = []
  for (let round = 0; round < 2; round++) {
    const p = await s.t.call('POST', 'projects', {
      token: client.token,
      body: {
        title: 'Race project number ' + round,
        description: 'A project that two accepts race for, at the same moment.',
        subcategoryId: sub.id,
        budgetType: 'fixed',
        budgetMinor: 100000,
        currency: 'EUR',
        publish: true,
      },
    })
    const proposal = {
      coverLetter: 'I can do this work carefully and on time, with references.',
      bidMinor: 90000,
      durationDays: 10,
    }
    const a = await s.t.call('POST', `projects/${p.json.id}/proposal`, { token: f1.token, body: proposal })
    const b = await s.t.call('POST', `projects/${p.json.id}/proposal`, { token: f2.token, body: proposal })
    const at = String(Date.now() + 1500)
    const env = (proposalId: number) => ({
      ...process.env,
      RACE_FILE: (s.testDb.target as { file: string }).file,
      RACE_AT: at,
      RACE_METHOD: 'POST',
      RACE_PATH: `projects/proposals/${proposalId}/accept/${p.json.id}`,
      RACE_TOKEN: client.token,
      RACE_BODY: '',
    })
    const answers = await Promise.all([
      run(node, [child], { env: env(a.json.id) }),
      run(node, [child], { env: env(b.json.id) }),
    ])
    const statuses = answers.map((x) => JSON.parse(x.stdout).status as number)
    results.push(statuses)
    expect(statuses.sort()).toEqual([200, 409])
    const contracts = await s.database.db
      .selectFrom('contract')
      .select('id')
      .where('project_id', '=', p.json.id)
      .execute()
    expect(contracts).toHaveLength(1)
  }
}, 60_000)
