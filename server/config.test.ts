import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  it('defaults to SQLite under data/ on port 3000', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.database).toMatchObject({ kind: 'sqlite' })
    expect(c.database.kind === 'sqlite' && c.database.file).toMatch(/data\/workneer\.sqlite$/)
  })

  it('takes PostgreSQL from a postgres:// DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/w' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/w' })
  })

  it('names every bad value in one message', () => {
    let error: unknown
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', SEED_DEMO: 'maybe' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    expect(message).toMatch(/PORT: must be a port number/)
    expect(message).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/)
    expect(message).toMatch(/SEED_DEMO: must be true or false/)
  })
})
