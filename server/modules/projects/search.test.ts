import { beforeAll, describe, expect, test } from 'vitest'
import { sql } from 'kysely'
import { dialects } from '../../../tests/integration/databases.ts'
import { useProjects } from '../../../tests/support/modules/projects.ts'
import { createProjectSearchIndex } from './search-index.ts'
import { SEARCH_WINDOW } from './search.ts'

// Find Project (issue 6) on both databases: every filter, sort and page returns exactly the right
// projects, the index follows edits and state changes, and the total stops at the window.
const DAY = 86_400_000

for (const dialect of dialects) {
  describe(`project search on ${dialect}`, () => {
    const s = useProjects(dialect)
    let client: Awaited<ReturnType<typeof s.t.user>>
    let subA: { id: number; category_id: number }
    let subB: { id: number; category_id: number }
    let skillsA: number[]
    const ids: Record<string, number> = {}

    const body = (over: Record<string, unknown>) => ({
      title: 'Untitled engineering work',
      description: 'A description long enough for the rules of a published project.',
      subcategoryId: subA.id,
      skillIds: [],
      budgetType: 'fixed',
      budgetMinor: 100_000,
      currency: 'EUR',
      remote: true,
      installments: [],
      publish: true,
      ...over,
    })
    const found = async (query: string) => {
      const r = await s.t.call('GET', `projects?pageSize=50&${query}`)
      expect(r.status, r.text).toBe(200)
      return r.json as {
        data: { id: number; budgetMinor: number; proposalCount: number }[]
        total: number
        page: number
      }
    }
    /** The names of the projects found, in the order returned. */
    const names = async (query: string) => {
      const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]))
      return (await found(query)).data.map((p) => byId.get(p.id) ?? `other ${p.id}`)
    }
    const sorted = (list: string[]) => [...list].sort()

    beforeAll(async () => {
      client = await s.t.user('client', 'Sara', 'Search')
      const subs = await s.database.db
        .selectFrom('subcategory')
        .select(['id', 'category_id'])
        .orderBy('id')
        .execute()
      subA = subs[0]
      subB = subs.find((s) => s.category_id !== subA.category_id)!
      skillsA = (
        await s.database.db
          .selectFrom('subcategory_skill')
          .select('skill_id')
          .where('subcategory_id', '=', subA.id)
          .orderBy('skill_id')
          .limit(2)
          .execute()
      ).map((s) => s.skill_id)
      const make = async (name: string, over: Record<string, unknown>) => {
        const r = await s.t.call('POST', 'projects', { token: client.token, body: body(over) })
        expect(r.status, r.text).toBe(200)
        ids[name] = r.json.id
      }
      // Created in this order: a larger id is newer.
      await make('beam', {
        title: 'Steel beam design for a loft',
        budgetMinor: 250_000,
        skillIds: [skillsA[0]],
        experienceLevel: 'expert',
        country: 'ES',
        remote: false,
        location: 'Madrid',
      })
      await make('bridge', {
        title: 'Footbridge feasibility study',
        description: 'Feasibility of a timber footbridge over a river, with a steel option compared.',
        subcategoryId: subB.id,
        budgetType: 'hourly',
        budgetMinMinor: 7_000,
        budgetMinor: 9_000,
        hoursPerWeek: 10,
        experienceLevel: 'intermediate',
        currency: 'USD',
        country: 'DE',
        remote: false,
        location: 'Köln',
      })
      await make('slab', {
        title: 'Concrete slab check',
        budgetMinor: 40_000,
        skillIds: [skillsA[1]],
        experienceLevel: 'entry',
      })
      await make('roof', {
        title: 'Timber roof truss',
        description: 'Roof truss calculations for a barn; cimentación not needed.',
        subcategoryId: subB.id,
        budgetMinor: 1_200_000,
        skillIds: [],
        experienceLevel: 'expert',
        country: 'ES',
        remote: false,
        location: 'Sevilla',
      })
      await make('old', {
        title: 'Steel stair calculations',
        budgetMinor: 70_000,
        experienceLevel: 'intermediate',
      })
      // "old" was published ten days ago: moved back in time, then indexed again.
      await s.database.db
        .updateTable('project')
        .set({ published_at: new Date(Date.now() - 10 * DAY).toISOString() })
        .where('id', '=', ids.old)
        .execute()
      await createProjectSearchIndex(dialect).rebuild(s.database.db)
      await s.database.db
        .updateTable('project')
        .set({ proposal_count: 3 })
        .where('id', '=', ids.beam)
        .execute()
      await s.database.db
        .updateTable('project')
        .set({ proposal_count: 1 })
        .where('id', 'in', [ids.slab, ids.roof, ids.old])
        .execute()
    }, 60_000)

    test('each filter returns exactly the projects that have it', async () => {
      expect(sorted(await names(''))).toEqual(['beam', 'bridge', 'old', 'roof', 'slab'])
      expect(sorted(await names(`categoryId=${subB.category_id}`))).toEqual(['bridge', 'roof'])
      expect(sorted(await names(`subcategoryId=${subA.id}`))).toEqual(['beam', 'old', 'slab'])
      expect(sorted(await names(`skills=${skillsA[0]}`))).toEqual(['beam'])
      expect(sorted(await names(`skills=${skillsA[0]}&skills=${skillsA[1]}`))).toEqual(['beam', 'slab'])
      expect(sorted(await names('budgetType=hourly'))).toEqual(['bridge'])
      expect(sorted(await names('budgetMin=70000'))).toEqual(['beam', 'old', 'roof'])
      expect(sorted(await names('budgetMax=70000'))).toEqual(['bridge', 'old', 'slab'])
      expect(sorted(await names('budgetMin=40001&budgetMax=250000'))).toEqual(['beam', 'old'])
      expect(sorted(await names('experienceLevel=expert'))).toEqual(['beam', 'roof'])
      expect(sorted(await names('country=es'))).toEqual(['beam', 'roof'])
      expect(sorted(await names('currency=USD'))).toEqual(['bridge'])
      expect(sorted(await names('remote=true'))).toEqual(['old', 'slab'])
      expect(sorted(await names('postedWithin=7'))).toEqual(['beam', 'bridge', 'roof', 'slab'])
      expect(sorted(await names('postedWithin=30'))).toEqual(['beam', 'bridge', 'old', 'roof', 'slab'])
      // Combined: every filter must hold.
      expect(
        await names(`categoryId=${subA.category_id}&experienceLevel=expert&country=ES&budgetMin=100000`),
      ).toEqual(['beam'])
      expect(await names('budgetType=hourly&country=ES')).toEqual([])
      expect(await found('budgetMin=500000&budgetMax=100000')).toMatchObject({ data: [], total: 0 })
    })

    test('words match as prefixes, folded, in title, description and skills, combined with filters', async () => {
      expect(sorted(await names('search=steel'))).toEqual(['beam', 'bridge', 'old'])
      expect(sorted(await names('search=STE'))).toEqual(['beam', 'bridge', 'old'])
      expect(await names('search=cimentacion')).toEqual(['roof'])
      expect(sorted(await names('search=timber'))).toEqual(['bridge', 'roof'])
      expect(await names('search=steel%20loft')).toEqual(['beam'])
      expect(await names('search=steel&budgetType=hourly')).toEqual(['bridge'])
      expect(await names('search=steel&postedWithin=7&subcategoryId=' + subA.id)).toEqual(['beam'])
      // A facet's spelling typed as a word finds nothing: facets are never matched against words.
      expect(await names(`search=c${subA.category_id}`)).toEqual([])
      expect(await names('search=open')).toEqual([])
      // PostgreSQL keeps words and facets in one tsvector (project_term): a word never reaches a facet.
      expect(await names('search=tfixed')).toEqual([])
      expect(await names('search=lexpert&experienceLevel=expert')).toEqual([])
      expect(await names('search=tim&budgetType=fixed')).toEqual(['roof'])
      expect(await names('search=nonexistentword')).toEqual([])
    })

    test('walking the newest rows, walking on and asking the index find the same window', async () => {
      const window = async (
        limits: { recent: number; walkOn: number } | undefined,
        term: string,
        facets: string[][],
        limit: number,
      ) => {
        const index = createProjectSearchIndex(dialect, limits)
        const m = await index.searchWindow(s.database.db, index.query(term, facets)!, limit, false)
        return (await s.database.db.selectFrom(m).select('m.project_id').execute()).map((r) => r.project_id)
      }
      const cases: [string, string[][], number, number[]][] = [
        ['steel', [], 10, [ids.old, ids.bridge, ids.beam]],
        ['steel', [], 2, [ids.old, ids.bridge]],
        ['steel', [['tfixed']], 10, [ids.old, ids.beam]],
        ['ti', [[`c${subB.category_id}`]], 10, [ids.roof, ids.bridge]],
        ['calc', [], 10, [ids.old, ids.roof]],
      ]
      // All in the walk; walking on after one of the newest 2 rows; the index after the newest row.
      for (const limits of [undefined, { recent: 2, walkOn: 1 }, { recent: 1, walkOn: 99 }]) {
        for (const [term, facets, limit, expected] of cases)
          expect(await window(limits, term, facets, limit), `${term} ${JSON.stringify(limits)}`).toEqual(
            expected,
          )
      }
    })

    test('asking the newest blocks of ids first finds the same window as asking every match', async () => {
      // Twelve projects 1,000 ids apart (blocks of 4,096 ids: 4 to 7), removed again at the end.
      const now = new Date().toISOString()
      const quarry = Array.from({ length: 12 }, (_, k) => 20_000 + k * 1000)
      await s.database.db
        .insertInto('project')
        .values(
          quarry.map((id) => ({
            id,
            client_id: client.id,
            status: 'open',
            title: `Quarry slope ${id}`,
            description: 'Slope stability of a quarry face.',
            category_id: subA.category_id,
            subcategory_id: subA.id,
            budget_type: 'fixed',
            budget_minor: 50_000,
            currency: 'EUR',
            duration_days: 10,
            deadline: null,
            experience_level: 'entry',
            remote: 1,
            location: null,
            country: null,
            installment_plan: '[]',
            proposal_count: 0,
            created_at: now,
            updated_at: now,
            published_at: now,
          })),
        )
        .execute()
      try {
        await createProjectSearchIndex(dialect).rebuild(s.database.db)
        if (dialect === 'postgres') {
          const terms = await sql<{
            terms: string
          }>`select terms::text as terms from project_term where project_id = 31000`.execute(s.database.db)
          expect(terms.rows[0].terms).toContain("'~w7'")
        }
        const window = async (recent: number, limit: number) => {
          const index = createProjectSearchIndex(dialect, { recent, walkOn: 99 })
          const m = await index.searchWindow(s.database.db, index.query('quarry', [])!, limit, false)
          return (await s.database.db.selectFrom(m).select('m.project_id').execute()).map((r) => r.project_id)
        }
        const newest = (n: number) => quarry.toReversed().slice(0, n)
        // One match among the newest 1,000 ids: the window lies in blocks 6 and 7, which hold it.
        expect(await window(1000, 3)).toEqual(newest(3))
        // One among the newest 100: block 7 alone holds three, fewer than nine, so every match is asked.
        expect(await window(100, 9)).toEqual(newest(9))
        expect(await window(100, 20)).toEqual(newest(12))
      } finally {
        await s.database.db.deleteFrom('project').where('id', 'in', quarry).execute()
        await createProjectSearchIndex(dialect).rebuild(s.database.db)
      }
    })

    test('sorts: newest, budget, fewest proposals, relevance (title before description)', async () => {
      expect(await names('sort=newest')).toEqual(['roof', 'slab', 'bridge', 'beam', 'old'])
      expect(await names('')).toEqual(['roof', 'slab', 'bridge', 'beam', 'old'])
      expect(await names('sort=budget_high')).toEqual(['roof', 'beam', 'old', 'slab', 'bridge'])
      expect(await names('sort=budget_low')).toEqual(['bridge', 'slab', 'old', 'beam', 'roof'])
      expect(await names('sort=fewest_proposals')).toEqual(['bridge', 'roof', 'slab', 'old', 'beam'])
      // "steel" is in the titles of beam and old and only in the description of bridge.
      const ranked = await names('search=steel&sort=relevance')
      expect(ranked.at(-1)).toBe('bridge')
      expect(sorted(ranked.slice(0, 2))).toEqual(['beam', 'old'])
      // Relevance without words falls back to newest.
      expect(await names('sort=relevance')).toEqual(['roof', 'slab', 'bridge', 'beam', 'old'])
    })

    test('pages follow each other without gaps or repeats; past the end is empty with the total', async () => {
      const seen: number[] = []
      for (let page = 1; page <= 3; page++) {
        const r = await s.t.call('GET', `projects?sort=budget_high&pageSize=2&page=${page}`)
        expect(r.json.total).toBe(5)
        seen.push(...r.json.data.map((p: { id: number }) => p.id))
      }
      expect(seen).toEqual((await found('sort=budget_high')).data.map((p) => p.id))
      const past = await s.t.call('GET', 'projects?pageSize=2&page=4')
      expect(past.json).toMatchObject({ data: [], total: 5, page: 4 })
    })

    test('the index follows edits and state changes', async () => {
      const r = await s.t.call('POST', 'projects', {
        token: client.token,
        body: body({ title: 'Retaining wall design', subcategoryId: subA.id }),
      })
      const id = r.json.id as number
      expect(await names(`search=retaining&categoryId=${subA.category_id}`)).toEqual([`other ${id}`])
      const edited = await s.t.call('PUT', `projects/${id}`, {
        token: client.token,
        body: body({
          title: 'Retaining wall design',
          subcategoryId: subB.id,
          budgetType: 'hourly',
          budgetMinMinor: 4_000,
          budgetMinor: 5_000,
          hoursPerWeek: 25,
          publish: false,
        }),
      })
      expect(edited.status, edited.text).toBe(200)
      expect(await names(`search=retaining&categoryId=${subA.category_id}`)).toEqual([])
      expect(await names(`search=retaining&categoryId=${subB.category_id}&budgetType=hourly`)).toEqual([
        `other ${id}`,
      ])
      const cancelled = await s.t.call('PUT', `projects/${id}/updatestate/cancelled`, { token: client.token })
      expect(cancelled.status, cancelled.text).toBe(200)
      expect(await names('search=retaining')).toEqual([])
    })

    test(`the total stops at ${SEARCH_WINDOW} (the newest matches); paging stops there too`, async () => {
      const now = new Date().toISOString()
      const rows = Array.from({ length: SEARCH_WINDOW + 5 }, (_, k) => ({
        client_id: client.id,
        status: 'open',
        title: `Bulk survey ${k}`,
        description: 'Topographic survey of a plot.',
        category_id: subA.category_id,
        subcategory_id: subA.id,
        budget_type: 'fixed',
        budget_minor: 10_000 + k,
        currency: 'EUR',
        duration_days: 10,
        deadline: null,
        experience_level: 'entry',
        remote: 1,
        location: null,
        country: null,
        installment_plan: '[]',
        proposal_count: 0,
        created_at: now,
        updated_at: now,
        published_at: now,
      }))
      for (let i = 0; i < rows.length; i += 200)
        await s.database.db
          .insertInto('project')
          .values(rows.slice(i, i + 200))
          .execute()
      await createProjectSearchIndex(dialect).rebuild(s.database.db)
      const first = await found('search=survey&sort=newest')
      expect(first.total).toBe(SEARCH_WINDOW)
      expect(first.data.length).toBe(50)
      const newest = await s.database.db
        .selectFrom('project')
        .select('id')
        .where('title', 'like', 'Bulk survey%')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
      expect(first.data[0].id).toBe(newest.id)
      expect((await found('search=survey&page=21')).data).toEqual([])
      expect((await found('search=survey&page=20')).data.length).toBe(50)
    }, 60_000)
  })
}
