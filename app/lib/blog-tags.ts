// A blog post's tags are stored as slugs ('structural-engineering') so that every language shares
// them; a reader sees each in their own language (locales/<lng>/content.json, blog.tags). A tag an
// editor adds later, with no translation yet, reads as words rather than a slug: "Steel frames".

type Translate = (key: string, options: { ns: string; defaultValue: string }) => string

/** The slug written as words, with a capital first letter: the fallback for a tag not yet translated. */
export const tagWords = (slug: string) => {
  const words = slug.replace(/[-_]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A tag in the reader's language. */
export const tagLabel = (t: Translate, slug: string) =>
  t(`blog.tags.${slug}`, { ns: 'content', defaultValue: tagWords(slug) })
