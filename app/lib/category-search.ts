// What /categories?search=<term> lists (docs/product.md §2: a category of the mega-menu, the side menu or
// the footer passes its name as the search term). A term that is a category's own name (in the
// page's language, whatever its case) is that category, alone: "Engineering" must not also list
// Construction Economics because its description mentions value engineering. Any other term lists
// the areas whose name, description, subcategories or skills contain it; empty or "all" lists all.
export interface SearchableCategory {
  name: string
  description: string
  subcategories: Array<{ name: string; skills: Array<{ name: string }> }>
}

export function categoriesMatching<C extends SearchableCategory>(categories: C[], search: string): C[] {
  const needle = search.trim().toLocaleLowerCase()
  if (!needle || needle === 'all') return categories
  const named = categories.filter((c) => c.name.trim().toLocaleLowerCase() === needle)
  if (named.length) return named
  const matches = (s: string) => s.toLocaleLowerCase().includes(needle)
  return categories.filter(
    (c) =>
      matches(c.name) ||
      matches(c.description) ||
      c.subcategories.some((s) => matches(s.name) || s.skills.some((k) => matches(k.name))),
  )
}
