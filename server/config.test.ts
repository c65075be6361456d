import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  it('defaults to SQLite under data/ on port 3000', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.database).toMatchObject({ kind: 'sqlite' })
    expect(c.database.kind === 'sqlite' && c.database.file).toMatch(/data\/workneer\.sqlite$/)
  })

  it('keeps the fees as basis points (defaults 10 % platform, 3 % client) and refuses other values, naming them', () => {
    expect(loadConfig({}).fees).toEqual({ platformBps: 1000, clientBps: 300 })
    expect(loadConfig({ PLATFORM_FEE_PERCENT: '12.5', CLIENT_FEE_PERCENT: '0' }).fees).toEqual({
      platformBps: 1250,
      clientBps: 0,
    })
    expect(() => loadConfig({ PLATFORM_FEE_PERCENT: 'ten' })).toThrow(
      /PLATFORM_FEE_PERCENT: must be a percentage/,
    )
    expect(() => loadConfig({ CLIENT_FEE_PERCENT: '60' })).toThrow(/CLIENT_FEE_PERCENT: must be 0 to 50/)
    expect(() => loadConfig({ CLIENT_FEE_PERCENT: '2.345' })).toThrow(
      /CLIENT_FEE_PERCENT: must have at most two decimals/,
    )
  })

  it("reads the platform's legal details for invoices, printed only when set, and refuses a bad VAT rate", () => {
    expect(loadConfig({}).platform).toEqual({
      legalName: '',
      address: [],
      registration: '',
      vatId: '',
      vatBps: null,
    })
    expect(
      loadConfig({
        PLATFORM_LEGAL_NAME: ' Workneer S.L. ',
        PLATFORM_ADDRESS: 'Calle Mayor 1;28013 Madrid ; ;Spain',
        PLATFORM_REGISTRATION: 'B-12345678',
        PLATFORM_VAT_ID: 'ESB12345678',
        PLATFORM_VAT_PERCENT: '21',
      }).platform,
    ).toEqual({
      legalName: 'Workneer S.L.',
      address: ['Calle Mayor 1', '28013 Madrid', 'Spain'],
      registration: 'B-12345678',
      vatId: 'ESB12345678',
      vatBps: 2100,
    })
    expect(() => loadConfig({ PLATFORM_VAT_PERCENT: 'twenty' })).toThrow(
      /PLATFORM_VAT_PERCENT: must be a percentage/,
    )
  })

  it('takes PostgreSQL from a postgres:// DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/w' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/w',
    })
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
