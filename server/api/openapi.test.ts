import { describe, expect, it } from 'vitest'
import { validate } from '@readme/openapi-parser'
import { useTestApi } from '../../tests/integration/api-client.ts'

describe('OpenAPI document', () => {
  const t = useTestApi('sqlite')
  it('is a valid OpenAPI 3 document that lists every implemented endpoint', async () => {
    const { api, get } = t.api
    const r = await get('openapi.json')
    expect(r.status).toBe(200)
    const result = await validate(structuredClone(r.json))
    expect(result.valid, JSON.stringify(result)).toBe(true)
    for (const e of api.endpoints)
      expect(r.json.paths[`/${e.path}`]?.[e.method.toLowerCase()], `${e.method} ${e.path}`).toBeDefined()
    const docs = await get('docs')
    expect(docs.headers.get('content-type')).toMatch(/text\/html/)
    expect(docs.text).toContain('/api/v1/settings/searchskills')
  })
})
