import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import { publishedProject, useProjects } from '../../../../tests/support/modules/projects.ts'

// A project's shortlist on both databases (decision 336): only the project's client shortlists,
// writes notes and compares; to anyone else, the proposal's author included, it is not there (404)
// and nothing changes. The note never reaches the freelancer's views of their proposal, and the
// freelancer is told nothing.
for (const dialect of portableDialects) {
  describe(`a project's shortlist on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, other: U, fred: U, fiona: U
    let projectId: number, fredsId: number, fionasId: number
    const NOTE = 'Cheapest, but SECRETNOTE asks for a site visit first'

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      other = await s.t.user('company', 'Cora', 'Company')
      fred = await s.t.user('freelancer', 'Fred', 'Freelancer')
      fiona = await s.t.user('freelancer', 'Fiona', 'Second')
      projectId = await publishedProject(s.t, s.database, client, {
        title: 'Foundation review for an extension',
        description: 'Check the foundations of a small house extension and write a short report.',
      })
      const propose = async (who: U, bidMinor: number) => {
        const r = await s.t.call('POST', `projects/${projectId}/proposal`, {
          token: who.token,
          body: { coverLetter: 'I review foundations every week, with drawings.', bidMinor, durationDays: 7 },
        })
        expect(r.status, r.text).toBe(200)
        return r.json.id as number
      }
      fredsId = await propose(fred, 75000)
      fionasId = await propose(fiona, 70000)
    }, 60_000)

    const rows = async () =>
      s.database.db.selectFrom('proposal_shortlist').select(['proposal_id', 'note']).execute()
    const put = (token: string, id: number, body: Record<string, unknown> = {}) =>
      s.t.call('PUT', `projects/proposals/${id}/shortlist`, { token, body })

    test('the client shortlists two proposals with a note and compares them, oldest first', async () => {
      const first = await put(client.token, fredsId, { note: `  ${NOTE}  ` })
      expect(first.status, first.text).toBe(200)
      expect(first.json).toMatchObject({ proposalId: fredsId, note: NOTE })
      expect((await put(client.token, fionasId)).json.note).toBeNull()
      // Shortlisting again keeps it once and replaces the note (an empty note is none).
      expect((await put(client.token, fionasId, { note: 'Fast' })).json.note).toBe('Fast')

      const compared = await s.t.call('GET', `projects/${projectId}/shortlist`, { token: client.token })
      expect(compared.status, compared.text).toBe(200)
      expect(compared.json.project).toMatchObject({ id: projectId, status: 'open', hourly: false })
      expect(compared.json.data.map((e: { proposalId: number }) => e.proposalId)).toEqual([fredsId, fionasId])
      expect(compared.json.data[0]).toMatchObject({
        note: NOTE,
        proposal: { id: fredsId, bidMinor: 75000, durationDays: 7, freelancer: { id: fred.id } },
      })
      expect(compared.json.data[1].proposal.freelancer).toMatchObject({ rating: 0, ratingCount: 0 })
    })

    test('a note longer than 500 characters is a 400 naming the field, and changes nothing', async () => {
      const before = await rows()
      const r = await put(client.token, fionasId, { note: 'x'.repeat(501) })
      expect(r.status).toBe(400)
      expect(Object.keys(r.json.errors)).toEqual(['note'])
      expect(await rows()).toEqual(before)
    })

    test('the freelancer, another client and a visitor are told 404 (401), and nothing changes', async () => {
      const before = await rows()
      for (const who of [fred, fiona, other]) {
        expect((await put(who.token, fredsId, { note: 'mine' })).status).toBe(404)
        expect(
          (await s.t.call('DELETE', `projects/proposals/${fredsId}/shortlist`, { token: who.token })).status,
        ).toBe(404)
        expect((await s.t.call('GET', `projects/${projectId}/shortlist`, { token: who.token })).status).toBe(
          404,
        )
      }
      expect((await put('', fredsId)).status).toBe(401)
      expect((await put(client.token, 999_999)).status).toBe(404)
      expect(await rows()).toEqual(before)
    })

    test("the note never reaches the freelancer's views of their proposal, nor a notice", async () => {
      const views = [
        'projects/freelancer/proposals',
        `projects/${projectId}/details-for-freelancer`,
        `projects/proposals/${fredsId}`,
        `projects/proposals/${fredsId}/revisions`,
        'notifications',
        'dashboard',
      ]
      for (const path of views) {
        const r = await s.t.call('GET', path, { token: fred.token })
        expect(r.status, `${path} ${r.text}`).toBeLessThan(500)
        expect(r.text, path).not.toContain('SECRETNOTE')
        expect(r.text.toLowerCase(), path).not.toContain('shortlist')
      }
      await s.t.api.jobs.outbox.drain()
      const notices = await s.database.db
        .selectFrom('notification')
        .select('id')
        .where('user_id', '=', fred.id)
        .execute()
      expect(notices).toEqual([])
    })

    test('the client takes a proposal off the shortlist with its note', async () => {
      const r = await s.t.call('DELETE', `projects/proposals/${fredsId}/shortlist`, { token: client.token })
      expect(r.status, r.text).toBe(200)
      expect((await rows()).map((x) => x.proposal_id)).toEqual([fionasId])
      const compared = await s.t.call('GET', `projects/${projectId}/shortlist`, { token: client.token })
      expect(compared.text).not.toContain('SECRETNOTE')
    })
  })
}
