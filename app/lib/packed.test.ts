import { describe, expect, it, vi } from 'vitest'
import { jsonOf, packed, shared, sharedView, unpack, type Packed } from './packed'

// Decision 299: a page's lists travel as one JSON text. The server renders from the loader's own
// value; the browser parses a text once; only a value that can never change has its JSON made once.
describe('a packed value', () => {
  it('is its JSON, and gives the server the loader’s own value back', () => {
    const value = { data: [{ id: 1, title: 'Wall "A" <b>' }], total: 1 }
    const text = packed(value)
    expect(JSON.parse(text)).toEqual(value)
    expect(unpack(text)).toBe(value)
  })

  it('is parsed once in the browser, however often the page renders', () => {
    const fromDocument = JSON.stringify({ id: 2, skills: ['Revit'] }) as Packed<{
      id: number
      skills: string[]
    }>
    const parse = vi.spyOn(JSON, 'parse')
    const first = unpack(fromDocument)
    expect(unpack(fromDocument)).toBe(first)
    expect(parse).toHaveBeenCalledTimes(1)
    parse.mockRestore()
    expect(first).toEqual({ id: 2, skills: ['Revit'] })
  })

  it('is parsed again, equal, once many other texts came after it', () => {
    const text = JSON.stringify({ id: 3 }) as Packed<{ id: number }>
    const first = unpack(text)
    for (let i = 0; i < 300; i++) unpack(JSON.stringify({ other: i }) as Packed<unknown>)
    const again = unpack(text)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})

describe('a shared value', () => {
  it('is frozen through and through: a page that tries to change it throws', () => {
    const answer = shared({ data: [{ id: 1, client: { name: 'Sarah' } }] })
    expect(() => {
      answer.data[0].client.name = 'someone else'
    }).toThrow(TypeError)
    expect(() => answer.data.push({ id: 2, client: { name: 'x' } })).toThrow(TypeError)
  })

  it('has its JSON made once; a value that can change has it made every time', () => {
    const kept = shared({ id: 1, skills: ['Revit'] })
    const own = { id: 1, skills: ['Revit'] }
    const stringify = vi.spyOn(JSON, 'stringify')
    jsonOf(kept)
    jsonOf(kept)
    expect(stringify).toHaveBeenCalledTimes(1)
    expect(jsonOf(own)).toBe(jsonOf(kept))
    own.skills.push('AutoCAD')
    expect(jsonOf(own)).toBe('{"id":1,"skills":["Revit","AutoCAD"]}')
    stringify.mockRestore()
  })

  it('gives one view per source, made once and frozen like it', () => {
    let made = 0
    const namesOf = sharedView(
      (answer: { data: Array<{ name: string }> }) => (made++, answer.data.map((d) => d.name)),
    )
    const answer = shared({ data: [{ name: 'Revit' }] })
    const view = namesOf(answer)
    expect(namesOf(answer)).toBe(view)
    expect(made).toBe(1)
    expect(Object.isFrozen(view)).toBe(true)
    expect(namesOf(shared({ data: [{ name: 'Revit' }] }))).not.toBe(view)
    expect(made).toBe(2)
  })
})
