import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { useMarketplace } from '../../../tests/support/modules/marketplace.ts'
import { MAX_SAVED_SEARCHES } from './schemas.ts'

// Saved searches on both databases (issue 41 item 1): saving, listing, renaming, switching off and
// deleting; each search is its owner's alone (404 to anyone else); every refusal names its field
// or answers 403/404 and changes nothing.
for (const dialect of dialects) {
  describe(`saved searches on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: 'alerts', addressBlock: 41 })
    const m = useMarketplace(s, {
      freelancer: ['freelancer', 'Fran', 'Saver'],
      other: ['freelancer', 'Olga', 'Other'],
      client: ['client', 'Clara', 'Client'],
    })

    const rows = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('saved_search')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const save = (token: string, body: Record<string, unknown>) =>
      s.t.call('POST', 'SavedSearches', { token, body })

    test('a freelancer saves a Find Project search with a name, lists, renames, switches off and deletes it', async () => {
      const made = await save(m.freelancer.token, {
        name: '  Steel beams  ',
        search: 'steel beam',
        subcategoryId: m.cat.sub.id,
        skills: m.cat.skills.slice(0, 2),
        budgetType: 'fixed',
        budgetMin: 50000,
        budgetMax: 500000,
        remote: true,
        frequency: 'weekly',
      })
      expect(made.status, made.text).toBe(200)
      expect(made.json).toMatchObject({
        kind: 'project',
        name: 'Steel beams',
        frequency: 'weekly',
        active: true,
        fromProfile: false,
        newMatches: 0,
        filters: {
          search: 'steel beam',
          subcategoryId: m.cat.sub.id,
          skills: m.cat.skills.slice(0, 2),
          budgetType: 'fixed',
          budgetMin: 50000,
          budgetMax: 500000,
          remote: true,
        },
      })
      const id = made.json.id as number
      // Indexed under its most selective facet only: the subcategory.
      const keys = await s.database.db
        .selectFrom('saved_search_key')
        .select('key')
        .where('saved_search_id', '=', id)
        .execute()
      expect(keys.map((k) => k.key)).toEqual([`s${m.cat.sub.id}`])

      const list = await s.t.call('GET', 'SavedSearches', { token: m.freelancer.token })
      expect(list.json.data.map((r: { id: number }) => r.id)).toEqual([id])

      const renamed = await s.t.call('PUT', `SavedSearches/${id}`, {
        token: m.freelancer.token,
        body: { name: 'Beams', active: false, frequency: 'never' },
      })
      expect(renamed.status, renamed.text).toBe(200)
      expect(renamed.json).toMatchObject({ name: 'Beams', active: false, frequency: 'never' })

      const gone = await s.t.call('DELETE', `SavedSearches/${id}`, { token: m.freelancer.token })
      expect(gone.json).toEqual({ deleted: true })
      expect((await s.t.call('GET', `SavedSearches/${id}`, { token: m.freelancer.token })).status).toBe(404)
      const leftKeys = await s.database.db
        .selectFrom('saved_search_key')
        .select('key')
        .where('saved_search_id', '=', id)
        .execute()
      expect(leftKeys).toEqual([])
    })

    test("another person's saved search answers 404 to reading, changing and deleting, and stays as it was", async () => {
      const made = await save(m.freelancer.token, { name: 'Mine', subcategoryId: m.cat.sub.id })
      const id = made.json.id as number
      for (const who of [m.other, m.client]) {
        expect((await s.t.call('GET', `SavedSearches/${id}`, { token: who.token })).status).toBe(404)
        const put = await s.t.call('PUT', `SavedSearches/${id}`, {
          token: who.token,
          body: { name: 'Theirs' },
        })
        expect(put.status).toBe(404)
        expect((await s.t.call('DELETE', `SavedSearches/${id}`, { token: who.token })).status).toBe(404)
        const theirs = await s.t.call('GET', 'SavedSearches', { token: who.token })
        expect(theirs.json.data.map((r: { id: number }) => r.id)).not.toContain(id)
      }
      expect((await s.t.call('GET', `SavedSearches/${id}`)).status).toBe(401)
      const mine = await s.t.call('GET', `SavedSearches/${id}`, { token: m.freelancer.token })
      expect(mine.json).toMatchObject({ name: 'Mine', active: true })
    })

    test('bad input answers 400 naming the field and saves nothing', async () => {
      const before = await rows()
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(81) }, 'name'],
        [{ name: 'Bad', skills: [999_999] }, 'skills'],
        [{ name: 'Bad', categoryId: 999_999 }, 'categoryId'],
        [{ name: 'Bad', subcategoryId: m.cat.other.id, categoryId: m.cat.sub.category_id }, 'subcategoryId'],
        [{ name: 'Bad', budgetMin: 5000, budgetMax: 100 }, 'budgetMax'],
        [{ name: 'Bad', budgetType: 'barter' }, 'budgetType'],
        [{ name: 'Bad', frequency: 'hourly' }, 'frequency'],
        [{ name: 'Bad', search: 'w'.repeat(101) }, 'search'],
      ]
      for (const [body, field] of cases) {
        const r = await save(m.freelancer.token, body)
        expect(r.status, JSON.stringify(body)).toBe(400)
        expect(Object.keys(r.json.errors), JSON.stringify(body)).toContain(field)
      }
      const wrongKind = await save(m.client.token, { name: 'Bad', kind: 'freelancer', budgetType: 'fixed' })
      expect(wrongKind.status).toBe(400)
      expect(Object.keys(wrongKind.json.errors)).toContain('budgetType')
      expect(await rows()).toBe(before)
    })

    test('freelancers save Find Project searches and clients Find Freelancers searches (403 otherwise)', async () => {
      const before = await rows()
      expect((await save(m.client.token, { name: 'Projects', kind: 'project' })).status).toBe(403)
      expect((await save(m.freelancer.token, { name: 'People', kind: 'freelancer' })).status).toBe(403)
      expect((await save('', { name: 'Anyone' })).status).toBe(401)
      expect(await rows()).toBe(before)
      const theirs = await save(m.client.token, {
        name: 'Engineers',
        kind: 'freelancer',
        categoryId: m.cat.sub.category_id,
      })
      expect(theirs.status, theirs.text).toBe(200)
      expect(theirs.json.kind).toBe('freelancer')
    })

    test(`a person keeps at most ${MAX_SAVED_SEARCHES} saved searches`, async () => {
      const many = await s.t.user('freelancer', 'Max', 'Many')
      for (let i = 0; i < MAX_SAVED_SEARCHES; i++)
        expect((await save(many.token, { name: `Search ${i}`, search: `word${i}` })).status).toBe(200)
      const one = await save(many.token, { name: 'One more' })
      expect(one.status).toBe(409)
      const list = await s.t.call('GET', 'SavedSearches', { token: many.token })
      expect(list.json.data).toHaveLength(MAX_SAVED_SEARCHES)
    })
  })
}
