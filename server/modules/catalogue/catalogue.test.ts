import { describe, expect, it } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { useTestApi } from '../../../tests/integration/api-client.ts'
import { areas } from '#server/db/seed-data/catalogue.ts'

describe.each(dialects)('catalogue API on %s', (dialect) => {
  const t = useTestApi(dialect)

  it("lists the six areas with name, image and the caller's language", async () => {
    const en = await t.api.get('categories')
    expect(en.status).toBe(200)
    expect(en.json.data.map((c: any) => c.slug)).toEqual(areas.map((a) => a.slug))
    expect(en.json.data[0]).toMatchObject({
      name: areas[0].name.en,
      categoryName: areas[0].name.en,
      attachmentUrl: areas[0].image,
    })
    const de = await t.api.get('categories', { 'accept-language': 'de-DE,de;q=0.9' })
    expect(de.json.data[0].name).toBe(areas[0].name.de)
    const unknown = await t.api.get('categories', { 'accept-language': 'fr' })
    expect(unknown.json.data[0].name).toBe(areas[0].name.en)
  })

  it('answers the settings dropdowns, paths matched without regard to case', async () => {
    for (const path of [
      'settings/dropdowns/languages',
      'settings/dropdowns/countries',
      'settings/dropdowns/industries',
      'Settings/Dropdowns/Categories',
      'settings/all-skills',
      'settings/all-categories',
    ]) {
      const r = await t.api.get(path)
      expect(r.status, path).toBe(200)
      expect(r.json.data.length, path).toBeGreaterThan(0)
    }
    const countries = await t.api.get('settings/dropdowns/countries?lang=ru')
    expect(countries.json.data.find((c: any) => c.code === 'DE').name).toBe('Германия')
  })

  it('narrows subcategories to an area and skills to a subcategory', async () => {
    const cats = (await t.api.get('settings/dropdowns/categories')).json.data
    const subs = (await t.api.get(`settings/dropdowns/subcategories?categoryId=${cats[2].id}`)).json.data
    expect(subs.length).toBe(areas[2].subcategories.length)
    expect(subs.every((s: any) => s.categoryId === cats[2].id)).toBe(true)
    const skills = (await t.api.get(`settings/dropdowns/skills?subcategoryId=${subs[0].id}`)).json.data
    expect(skills.map((s: any) => s.slug).sort()).toEqual([...areas[2].subcategories[0].skills].sort())
  })

  it('searches skills by part of their name', async () => {
    const r = await t.api.get('settings/searchskills?q=revit')
    expect(r.status).toBe(200)
    expect(r.json.data.some((s: any) => /revit/i.test(s.name))).toBe(true)
    const none = await t.api.get('settings/searchskills?q=%25%25%25')
    expect(none.json.data).toEqual([])
  })

  it('answers bad input with a 400 that names the field, and unknown paths with 404', async () => {
    const r = await t.api.get('settings/searchskills')
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ status: 400, title: 'Invalid Info', errors: { q: [expect.any(String)] } })
    expect(r.json.requestId).toBeTruthy()
    expect(r.headers.get('x-request-id')).toBe(r.json.requestId)
    const bad = await t.api.get('settings/dropdowns/subcategories?categoryId=abc')
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.json.errors)).toEqual(['categoryId'])
    const missing = await t.api.get('settings/nothing-here')
    expect(missing.status).toBe(404)
    const method = await t.api.request('DELETE', 'categories')
    expect(method.status).toBe(405)
  })
})
