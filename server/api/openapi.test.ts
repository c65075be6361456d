import { describe, expect, it } from 'vitest'
import { validate } from '@readme/openapi-parser'
import { createTestDatabase } from '../../tests/integration/databases.ts'
import { testApi } from '../../tests/integration/api-client.ts'

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3 document that lists every implemented endpoint', async () => {
    const testDb = await createTestDatabase('sqlite')
    const database = await testDb.open()
    const { api, get } = testApi(database)
    const r = await get('openapi.json')
    expect(r.status).toBe(200)
    const result = await validate(structuredClone(r.json))
    expect(result.valid, JSON.stringify(result)).toBe(true)
    for (const e of api.endpoints) expect(r.json.paths[`/${e.path}`]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined()
    const docs = await get('docs')
    expect(docs.headers.get('content-type')).toMatch(/text\/html/)
    expect(docs.text).toContain('/api/v1/settings/searchskills')
    await database.close()
    await testDb.drop()
  })
})
