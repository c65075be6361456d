import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { summarize } from './admin-items.ts'
import { blogInput } from './admin-contract.ts'

// A blog post's summary left empty is its body's first paragraph, cut at a word (decision 241);
// a language is written whole or not at all.
describe('blog summaries and written languages', () => {
  test('a summary is at most 200 characters and starts the first paragraph', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 400, size: 'max' }), { minLength: 1, maxLength: 4 }),
        (paragraphs) => {
          const body = paragraphs.join('\n\n')
          const first = body
            .trim()
            .split(/\n\s*\n/)[0]!
            .replace(/\s+/g, ' ')
          const summary = summarize(body)
          expect(summary.length).toBeLessThanOrEqual(200)
          expect(first.startsWith(summary.replace(/…$/, ''))).toBe(true)
        },
      ),
    )
    expect(summarize('Short one.\n\nSecond.')).toBe('Short one.')
    const long = summarize(`${'Reinforced concrete '.repeat(15)}\n\nSecond.`)
    expect(long).toMatch(/^Reinforced concrete .*concrete…$/)
    expect(long.length).toBeLessThanOrEqual(200)
  })

  test('half a language names its empty field; no language at all names the English title', () => {
    const half = blogInput.safeParse({ title: { de: 'Titel' }, body: {}, author: 'A' })
    expect(half.error?.issues.map((i) => i.path.join('.'))).toEqual(['body.de'])
    const none = blogInput.safeParse({ author: 'A' })
    expect(none.error?.issues.map((i) => i.path.join('.'))).toEqual(['title.en'])
    expect(
      blogInput.safeParse({ title: { ru: 'Заголовок' }, body: { ru: 'Текст' }, author: 'A' }).success,
    ).toBe(true)
  })
})
