import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'

// Saved freelancers on both databases (decision 336): a client or a company saves, lists and
// unsaves freelancers; a freelancer or an admin is told 403, an unknown freelancer 404, and each
// list is its owner's alone.
for (const dialect of dialects) {
  describe(`saved freelancers on ${dialect}`, () => {
    const s = useModuleApi(dialect, {
      name: 'favourites',
      addressBlock: 52,
      freelancerTitle: 'Structural engineer',
    })
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, company: U, fred: U, fiona: U

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      company = await s.t.user('company', 'Cora', 'Company')
      fred = await s.t.user('freelancer', 'Fred', 'Freelancer')
      fiona = await s.t.user('freelancer', 'Fiona', 'Second')
    }, 60_000)

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
      expect((await save(client.token, fred.id)).status).toBe(200)
      expect((await save(client.token, fiona.id)).status).toBe(200)
      expect((await save(client.token, fiona.id)).status).toBe(200)
      const saved = await list(client.token)
      expect(saved.status, saved.text).toBe(200)
      expect(saved.json.total).toBe(2)
      expect(saved.json.data.map((h: { userId: number }) => h.userId).sort()).toEqual(
        [fred.id, fiona.id].sort(),
      )
      expect(saved.json.data[0]).toMatchObject({ title: 'Structural engineer', rating: { count: 0 } })
      const among = await s.t.call(
        'GET',
        `freelancers/favourites/ids?userIds=${fred.id}&userIds=${client.id}`,
        {
          token: client.token,
        },
      )
      expect(among.json.data).toEqual([fred.id])

      expect(
        (await s.t.call('DELETE', `freelancers/${fred.id}/favourite`, { token: client.token })).status,
      ).toBe(200)
      expect((await list(client.token)).json.data.map((h: { userId: number }) => h.userId)).toEqual([
        fiona.id,
      ])
    })

    test("a company's list is its own", async () => {
      expect((await list(company.token)).json).toMatchObject({ data: [], total: 0 })
      expect((await save(company.token, fred.id)).status).toBe(200)
      expect((await list(company.token)).json.total).toBe(1)
      expect((await list(client.token)).json.total).toBe(1)
    })

    test('refusals change nothing: a freelancer 403, someone who is not a freelancer 404, a visitor 401', async () => {
      const before = await count()
      expect((await save(fred.token, fiona.id)).status).toBe(403)
      expect((await list(fred.token)).status).toBe(403)
      expect((await save(client.token, company.id)).status).toBe(404)
      expect((await save(client.token, 999_999)).status).toBe(404)
      expect((await save('', fred.id)).status).toBe(401)
      expect((await save(client.token, 0)).status).toBe(400)
      expect(await count()).toBe(before)
    })

    test('a freelancer whose account is suspended drops out of the list, and cannot be saved', async () => {
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Suspended' })
        .where('id', '=', fiona.id)
        .execute()
      expect((await list(client.token)).json).toMatchObject({ data: [], total: 0 })
      expect((await save(company.token, fiona.id)).status).toBe(404)
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Active' })
        .where('id', '=', fiona.id)
        .execute()
      expect((await list(client.token)).json.total).toBe(1)
    })
  })
}
