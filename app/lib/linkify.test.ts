import { describe, expect, it } from 'vitest'
import { linkify } from './linkify'

describe('linkify', () => {
  it('makes http, https and www addresses links and leaves the rest text', () => {
    expect(linkify('See https://example.com/plan.pdf and www.example.org, thanks')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/plan.pdf', href: 'https://example.com/plan.pdf' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'www.example.org', href: 'https://www.example.org' },
      { kind: 'text', text: ', thanks' },
    ])
  })

  it('never links other schemes and keeps markup as text', () => {
    expect(linkify('javascript:alert(1) <b>bold</b> data:text/html,x')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) <b>bold</b> data:text/html,x' },
    ])
  })

  it('drops sentence punctuation after an address but keeps a bracket it opened', () => {
    expect(linkify('(see http://a.example/x).')[1]).toEqual({
      kind: 'link',
      text: 'http://a.example/x',
      href: 'http://a.example/x',
    })
    expect(linkify('https://en.example/wiki/Beam_(structure)')[0]).toMatchObject({
      text: 'https://en.example/wiki/Beam_(structure)',
    })
  })

  it('stops an address at a quote or angle bracket', () => {
    expect(linkify('"https://a.example/x"<y>').filter((p) => p.kind === 'link')).toEqual([
      { kind: 'link', text: 'https://a.example/x', href: 'https://a.example/x' },
    ])
  })
})
