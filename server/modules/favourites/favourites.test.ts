import { describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { useMarketplace } from '../../../tests/support/modules/marketplace.ts'

// Saved freelancers on both databases (decision 336): a client or a company saves, lists and
// unsaves freelancers; a freelancer or an admin is told 403, an unknown freelancer 404, and each
// list is its owner's alone.
for (const dialect of portableDialects) {
  describe(`saved freelancers on ${dialect}`, () => {
    const s = useModuleApi(dialect, {
      name: 'favourites',
      addressBlock: 52,
      freelancerTitle: 'Structural engineer',
    })
    const m = useMarketplace(s, {
      client: ['client', 'Clara', 'Client'],
      company: ['company', 'Cora', 'Company'],
      fred: ['freelancer', 'Fred', 'Freelancer'],
      fiona: ['freelancer', 'Fiona', 'Second'],
    })

    const count = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('freelancer_favourite')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const save = (token: string, id: number) => s.t.call('PUT', `freelancers/${id}/favourite`, { token })
    const list = (token: string) => s.t.call('GET', 'freelancers/favourites', { token })

    test('a client saves two freelancers (twice changes nothing), lists them newest first and unsaves one', async () => {
      expect((await save(m.client.token, m.fred.id)).status).toBe(200)
      expect((await save(m.client.token, m.fiona.id)).status).toBe(200)
      expect((await save(m.client.token, m.fiona.id)).status).toBe(200)
      const saved = await list(m.client.token)
      expect(saved.status, saved.text).toBe(200)
      expect(saved.json.total).toBe(2)
      expect(saved.json.data.map((h: { userId: number }) => h.userId).sort()).toEqual(
        [m.fred.id, m.fiona.id].sort(),
      )
      expect(saved.json.data[0]).toMatchObject({ title: 'Structural engineer', rating: { count: 0 } })
      const among = await s.t.call(
        'GET',
        `freelancers/favourites/ids?userIds=${m.fred.id}&userIds=${m.client.id}`,
        {
          token: m.client.token,
        },
      )
      expect(among.json.data).toEqual([m.fred.id])

      expect(
        (await s.t.call('DELETE', `freelancers/${m.fred.id}/favourite`, { token: m.client.token })).status,
      ).toBe(200)
      expect((await list(m.client.token)).json.data.map((h: { userId: number }) => h.userId)).toEqual([
        m.fiona.id,
      ])
    })

    test("a company's list is its own", async () => {
      expect((await list(m.company.token)).json).toMatchObject({ data: [], total: 0 })
      expect((await save(m.company.token, m.fred.id)).status).toBe(200)
      expect((await list(m.company.token)).json.total).toBe(1)
      expect((await list(m.client.token)).json.total).toBe(1)
    })

    test('refusals change nothing: a freelancer 403, someone who is not a freelancer 404, a visitor 401', async () => {
      const before = await count()
      expect((await save(m.fred.token, m.fiona.id)).status).toBe(403)
      expect((await list(m.fred.token)).status).toBe(403)
      expect((await save(m.client.token, m.company.id)).status).toBe(404)
      expect((await save(m.client.token, 999_999)).status).toBe(404)
      expect((await save('', m.fred.id)).status).toBe(401)
      expect((await save(m.client.token, 0)).status).toBe(400)
      expect(await count()).toBe(before)
    })

    test('a freelancer whose account is suspended drops out of the list, and cannot be saved', async () => {
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Suspended' })
        .where('id', '=', m.fiona.id)
        .execute()
      expect((await list(m.client.token)).json).toMatchObject({ data: [], total: 0 })
      expect((await save(m.company.token, m.fiona.id)).status).toBe(404)
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Active' })
        .where('id', '=', m.fiona.id)
        .execute()
      expect((await list(m.client.token)).json.total).toBe(1)
    })
  })
}
