import { describe, expect, it } from 'vitest'
import { areas, skills } from '#server/db/seed-data/catalogue.ts'
import { locales } from '#server/db/seed-data/types.ts'
import { categoriesMatching } from './category-search'

// The catalogue a visitor reads, in each language, as the API gives it to /categories.
const skillName = new Map(skills.map((s) => [s.slug, s.name]))
const treeIn = (lng: (typeof locales)[number]) =>
  areas.map((a) => ({
    slug: a.slug,
    name: a.name[lng],
    description: a.description[lng],
    subcategories: a.subcategories.map((s) => ({
      name: s.name[lng],
      skills: s.skills.map((k) => ({ name: skillName.get(k)?.[lng] ?? k })),
    })),
  }))

describe('categoriesMatching', () => {
  it.each(locales)(
    'a category’s own name lists that category alone, in %s (the menus link by name)',
    (lng) => {
      const tree = treeIn(lng)
      for (const area of tree) {
        for (const term of [area.name, area.name.toLocaleUpperCase(), ` ${area.name.toLocaleLowerCase()} `]) {
          expect(
            categoriesMatching(tree, term).map((c) => c.slug),
            `${lng}: ${term}`,
          ).toEqual([area.slug])
        }
      }
    },
  )

  it('Engineering lists Engineering, not Construction Economics', () => {
    expect(categoriesMatching(treeIn('en'), 'Engineering').map((c) => c.slug)).toEqual(['engineering'])
  })

  it('any other term still finds areas by name, description, subcategory or skill; empty or "all" lists every area', () => {
    const tree = treeIn('en')
    expect(categoriesMatching(tree, '')).toHaveLength(tree.length)
    expect(categoriesMatching(tree, 'ALL')).toHaveLength(tree.length)
    expect(categoriesMatching(tree, 'engineer').length).toBeGreaterThan(1)
    expect(categoriesMatching(tree, 'Revit').length).toBeGreaterThan(0)
    expect(categoriesMatching(tree, 'no such trade at all')).toEqual([])
  })
})
