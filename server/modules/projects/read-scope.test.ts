import { beforeAll, describe, expect, test } from 'vitest'
import type { ReadScope } from '../../db/read-scope.ts'
import { dialects } from '../../../tests/integration/databases.ts'
import { useProjects } from '../../../tests/support/modules/projects.ts'

// Decision 281: one web page's GET calls read a project, its contract and the people in them once
// (the in-process web UI passes the page's read scope and empties it around its writes). Shown here
// by changing the rows under the scope: a call inside it still sees what the page read first, one
// after the scope is emptied sees the change, and so do HTTP callers (no scope) and writes.
for (const dialect of dialects) {
  describe(`a page's read scope on ${dialect}`, () => {
    const s = useProjects(dialect)
    let client: Awaited<ReturnType<typeof s.t.user>>
    let freelancer: Awaited<ReturnType<typeof s.t.user>>
    let projectId: number

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      freelancer = await s.t.user('freelancer', 'Fran', 'One')
      const sub = await s.database.db
        .selectFrom('subcategory')
        .select('id')
        .where('slug', '=', 'structural-engineering')
        .executeTakeFirstOrThrow()
      const created = await s.t.call('POST', 'projects', {
        token: client.token,
        body: {
          title: 'Retaining wall review',
          description: 'Check a cantilever retaining wall of 3 m on clay, with drainage details.',
          subcategoryId: sub.id,
          skillIds: [],
          budgetType: 'fixed',
          budgetMinor: 90000,
          currency: 'EUR',
          durationDays: 10,
          experienceLevel: 'intermediate',
          remote: true,
          installments: [{ title: 'Review', amountMinor: 90000 }],
          publish: true,
        },
      })
      expect(created.status, created.text).toBe(200)
      projectId = created.json.id
      const proposed = await s.t.call('POST', `projects/${projectId}/proposal`, {
        token: freelancer.token,
        body: {
          coverLetter: 'I have reviewed many retaining walls on clay and can deliver within a week.',
          bidMinor: 90000,
          durationDays: 7,
          installments: [{ title: 'Review', amountMinor: 90000 }],
        },
      })
      expect(proposed.status, proposed.text).toBe(200)
    }, 60_000)

    const details = async (reads?: ReadScope) => {
      const response = await s.t.api.handler(
        new Request(`http://in-process/api/v1/projects/${projectId}/details-for-freelancer`, {
          headers: { authorization: `Bearer ${freelancer.token}`, accept: 'application/json' },
        }),
        { reads },
      )
      expect(response.status).toBe(200)
      const view = (await response.json()) as {
        project: { title: string; client: { name: string } }
        proposal: { freelancer: { name: string } }
      }
      return {
        title: view.project.title,
        client: view.project.client.name,
        freelancer: view.proposal.freelancer.name,
      }
    }
    const rename = async (title: string, first: string) => {
      await s.database.db.updateTable('project').set({ title }).where('id', '=', projectId).execute()
      await s.database.db
        .updateTable('app_user')
        .set({ first_name: first })
        .where('id', 'in', [client.id, freelancer.id])
        .execute()
    }

    test('a page reads its project and its people once; emptied, the scope reads them afresh; without one, every call does', async () => {
      await rename('Retaining wall review', 'Clara')
      const reads: ReadScope = new Map()
      expect(await details(reads)).toEqual({
        title: 'Retaining wall review',
        client: 'Clara Client',
        freelancer: 'Clara One',
      })
      expect(reads.has(`project:${projectId}`)).toBe(true)
      expect(reads.has(`app_user:${client.id}`) && reads.has(`app_user:${freelancer.id}`)).toBe(true)
      await rename('Retaining wall and drainage review', 'Dora')
      // The same page: what it read first (one moment of the marketplace, as one query would give).
      expect(await details(reads)).toEqual({
        title: 'Retaining wall review',
        client: 'Clara Client',
        freelancer: 'Clara One',
      })
      // An HTTP caller, and a page after a write (the web UI empties its scope around every write), read afresh.
      expect(await details()).toEqual({
        title: 'Retaining wall and drainage review',
        client: 'Dora Client',
        freelancer: 'Dora One',
      })
      reads.clear()
      expect(await details(reads)).toEqual({
        title: 'Retaining wall and drainage review',
        client: 'Dora Client',
        freelancer: 'Dora One',
      })
    })

    test('a write never reads through the scope, nor leaves anything in it', async () => {
      const reads: ReadScope = new Map()
      await details(reads)
      const kept = [...reads.keys()]
      // The project row in the scope says open; the write must see it as it is now (a draft, hidden from others).
      await s.database.db
        .updateTable('project')
        .set({ status: 'draft' })
        .where('id', '=', projectId)
        .execute()
      const wish = await s.t.api.handler(
        new Request(`http://in-process/api/v1/projects/${projectId}/wishlist`, {
          method: 'POST',
          headers: { authorization: `Bearer ${freelancer.token}`, accept: 'application/json' },
        }),
        { reads },
      )
      await s.database.db.updateTable('project').set({ status: 'open' }).where('id', '=', projectId).execute()
      expect(wish.status).toBe(404)
      expect([...reads.keys()]).toEqual(kept)
    })
  })
}
