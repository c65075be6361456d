import { describe, expect, it } from 'vitest'
import { renderHtml, textOf } from '../../tests/support/render'
import Blogs from './blogs'

// Issue 39 (item 11): the blog list showed each tag as its slug with spaces, in English whatever
// the reader's language.
const post = {
  id: 1,
  title: 'Writing a structural brief',
  summary: 'What an engineer needs from you.',
  author: 'Workneer',
  imageUrl: null,
  publishedAt: '2026-03-02T00:00:00Z',
  tags: ['structural-engineering', 'steel-frames'],
}
const page = (lng: string) =>
  renderHtml(
    <Blogs
      {...({
        loaderData: { data: [post], page: 1, totalPages: 1, words: {}, title: 'Blog' },
        params: {},
        matches: [],
      } as unknown as Parameters<typeof Blogs>[0])}
    />,
    lng,
  )

describe('the blog list’s tags', () => {
  it('names each tag in the reader’s language, and an untranslated one as words', async () => {
    const text = textOf(await page('es'))
    expect(text).toContain('Ingeniería estructural')
    expect(text).not.toContain('structural engineering')
    expect(text).toContain('Steel frames')
  })
})
