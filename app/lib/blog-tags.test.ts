import { createT } from './translator'
import { describe, expect, it } from 'vitest'
import { localeText } from '../../tests/support/render'
import { supportedLanguages } from '~/lib/i18n'
import { blogPosts } from '#server/db/seed-data/blog-posts.ts'
import { tagLabel, tagWords } from './blog-tags'

// Issue 39 (item 11): blog tags stayed English slugs ("structural engineering") in every language.
const seeded = [...new Set(blogPosts.flatMap((p) => p.tags))]
const tagsOf = (lng: string) => (localeText(lng, 'content').blog as { tags: Record<string, string> }).tags

describe('blog tags in the reader’s language', () => {
  it.each(supportedLanguages)('every tag of the published posts has a name in %s', (lng) => {
    for (const tag of seeded) expect(tagsOf(lng)[tag], `${lng} ${tag}`).toBeTruthy()
  })

  it('names them in each language’s own words, not in English', () => {
    for (const lng of supportedLanguages.filter((l) => l !== 'en'))
      expect(tagsOf(lng)['structural-engineering'], lng).not.toBe(tagsOf('en')['structural-engineering'])
  })

  it('shows a tag with no translation yet as words, never as a slug', async () => {
    const t = createT({ catalogs: { de: { content: localeText('de', 'content') } }, lng: 'de', ns: 'common' })
    expect(tagLabel(t, 'structural-engineering')).toBe('Tragwerksplanung')
    expect(tagLabel(t, 'steel-frames')).toBe('Steel frames')
    expect(tagWords('bim_models')).toBe('Bim models')
  })
})
