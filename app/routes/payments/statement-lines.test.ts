import { describe, expect, it } from 'vitest'
import { csvCell, decimal } from './statement-lines'
import { readFilter } from './statement-filter.server'

// The statement's filter and its CSV cells (decision 192).
describe('statement CSV and filter', () => {
  it('quotes cells as RFC 4180 says and defuses formulas', () => {
    expect(csvCell('Roof, walls')).toBe('"Roof, walls"')
    expect(csvCell('The "big" one')).toBe('"The ""big"" one"')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"')
    expect(csvCell('-cmd')).toBe("'-cmd")
    expect(csvCell('-1236.00')).toBe('-1236.00')
    expect(csvCell('plain')).toBe('plain')
  })
  it("writes amounts with a point and the currency's digits", () => {
    expect(decimal(123456, 'EUR')).toBe('1234.56')
    expect(decimal(-5, 'EUR')).toBe('-0.05')
    expect(decimal(-1200, 'JPY')).toBe('-1200')
  })
  it('names the field of a bad date', () => {
    const read = (q: string) => readFilter(new URL(`http://x/statements?${q}`))
    expect(read('from=2026-01-01&to=2026-01-31')).toMatchObject({
      ok: true,
      filter: { from: '2026-01-01', to: '2026-01-31', page: 1 },
    })
    expect(read('from=&to=')).toMatchObject({ ok: true })
    expect(read('from=2026-02-01&to=2026-01-31')).toMatchObject({
      ok: false,
      error: { to: ['errors.order'] },
    })
    expect(read('from=31.01.2026')).toMatchObject({ ok: false, error: { from: ['errors.date'] } })
    expect(read('to=2026-02-30')).toMatchObject({ ok: false, error: { to: ['errors.date'] } })
  })
})
