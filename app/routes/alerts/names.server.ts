import type { RouterContextProvider } from 'react-router'
import { readCategoryTree } from '~/lib/catalogue.server'
import type { SavedSearch } from '#server/modules/alerts/contract.ts'

// The names of the categories, subcategories and skills that some saved searches' filters name,
// in the reader's language, so the summaries read as words; only those, to keep the page small.
export type FilterNames = Record<string, string>

export async function filterNames(
  context: Readonly<RouterContextProvider>,
  filters: Array<SavedSearch['filters']>,
): Promise<FilterNames> {
  const wanted = new Set(
    filters.flatMap((f) => [
      f.categoryId ? `c${f.categoryId}` : '',
      f.subcategoryId ? `s${f.subcategoryId}` : '',
      ...f.skills.map((id) => `k${id}`),
    ]),
  )
  wanted.delete('')
  if (!wanted.size) return {}
  const tree = await readCategoryTree(context)
  const all: Array<[string, string]> = tree.data.flatMap((c) => [
    [`c${c.id}`, c.name] as [string, string],
    ...c.subcategories.flatMap((s) => [
      [`s${s.id}`, s.name] as [string, string],
      ...s.skills.map((k) => [`k${k.id}`, k.name] as [string, string]),
    ]),
  ])
  return Object.fromEntries(all.filter(([key]) => wanted.has(key)))
}
