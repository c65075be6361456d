import { redirect } from 'react-router'
import { boxIcons, contentKinds, faqAudiences, type ContentKind } from '#server/modules/content/kinds.ts'

// What each kind of content's form holds (labels are keys of the adminContent namespace). Texts are
// written per language; plain fields once. The API's schemas check the same names.
export interface TextSpec {
  name: string
  long?: boolean
  /** May be left empty (a blog summary is then the body's first paragraph). */
  optional?: boolean
}
export interface PlainSpec {
  name: string
  type: 'text' | 'url' | 'select'
  options?: readonly string[]
  optional?: boolean
}
export interface KindForm {
  texts: TextSpec[]
  plain: PlainSpec[]
  /** Takes an uploaded image (a blog post's picture, a partner's logo). */
  image?: 'optional' | 'required'
  ordered: boolean
}

export const kindForms: Record<ContentKind, KindForm> = {
  blogs: {
    texts: [{ name: 'title' }, { name: 'summary', long: true, optional: true }, { name: 'body', long: true }],
    plain: [
      { name: 'author', type: 'text' },
      { name: 'tags', type: 'text', optional: true },
    ],
    image: 'optional',
    ordered: false,
  },
  faq: {
    texts: [{ name: 'question' }, { name: 'answer', long: true }],
    plain: [{ name: 'audience', type: 'select', options: faqAudiences }],
    ordered: true,
  },
  boxes: {
    texts: [{ name: 'title' }, { name: 'body', long: true }],
    plain: [{ name: 'icon', type: 'select', options: boxIcons }],
    ordered: true,
  },
  // The areas are the catalogue's, loaded by the page.
  services: {
    texts: [{ name: 'title' }, { name: 'body', long: true }],
    plain: [{ name: 'areaSlug', type: 'select' }],
    ordered: true,
  },
  logos: {
    texts: [],
    plain: [
      { name: 'name', type: 'text' },
      { name: 'linkUrl', type: 'url', optional: true },
    ],
    image: 'required',
    ordered: true,
  },
}

/** The kind a page's address names; anything else is the not-found page. */
export function kindOf(params: { kind?: string }): ContentKind {
  if (!(contentKinds as readonly string[]).includes(params.kind ?? '')) throw redirect('/auth/not-found')
  return params.kind as ContentKind
}

/** An item's id in the address; anything else is the not-found page. */
export function itemIdOf(params: { id?: string }) {
  const id = Number(params.id)
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31) throw redirect('/auth/not-found')
  return id
}

/** An item's name in a list: its first text in the admin's language, else in the first language written. */
export function itemLabel(item: Record<string, unknown>, language: string) {
  if (typeof item.name === 'string') return item.name
  const first = Object.values(item).find(
    (v): v is Record<string, string> => typeof v === 'object' && v !== null && 'en' in v,
  )
  if (!first) return ''
  return first[language] || Object.values(first).find(Boolean) || ''
}

/** The languages an item is written in. */
export function writtenIn(item: Record<string, unknown>) {
  const first = Object.values(item).find(
    (v): v is Record<string, string> => typeof v === 'object' && v !== null && 'en' in v,
  )
  return first ? Object.keys(first).filter((l) => first[l]) : []
}
