import { locales, type Locale } from '#server/db/schema.ts'
import { NAME_MAX, sheetColumns, type SheetProblem } from './admin-contract.ts'
import { formulaStart, type SheetRow } from './sheet.ts'

/** What a sheet is checked against: the catalogue's English names and slugs, and which skill sits in which subcategory. */
export interface CatalogueIndex {
  categories: Array<{ id: number; slug: string; name_en: string }>
  subcategories: Array<{ id: number; slug: string; name_en: string; category_id: number }>
  skills: Array<{ id: number; name_en: string }>
  links: Array<{ subcategory_id: number; skill_id: number }>
}

const fold = (s: string) => s.trim().toLowerCase()
const column = (l: Locale) => sheetColumns[2 + locales.indexOf(l)]

/**
 * Checks every row of a skills sheet against the catalogue (pure, so the import checks again inside
 * its transaction). A row is new (a skill the catalogue lacks), a link (a known skill into one more
 * subcategory), unchanged (already there: an exported sheet imports as nothing to do), or bad;
 * every problem names its line. Only good rows count towards what an import writes.
 */
export function checkRows(rows: SheetRow[], index: CatalogueIndex) {
  const categories = new Map<string, number>()
  for (const c of index.categories) categories.set(fold(c.name_en), c.id).set(c.slug, c.id)
  const subs = new Map<string, number>()
  for (const s of index.subcategories)
    subs.set(`${s.category_id}:${fold(s.name_en)}`, s.id).set(`${s.category_id}:${s.slug}`, s.id)
  const skills = new Map(index.skills.map((k) => [fold(k.name_en), k.id]))
  const links = new Set(index.links.map((l) => `${l.subcategory_id}:${l.skill_id}`))

  const problems: SheetProblem[] = []
  const seen = new Map<string, number>()
  const added = new Map<string, { names: Record<Locale, string>; subcategoryIds: number[] }>()
  const linked: Array<{ subcategoryId: number; skillId: number }> = []
  let unchanged = 0
  for (const row of rows) {
    const before = problems.length
    const problem = (field: string, code: SheetProblem['code'], message: string, firstLine?: number) =>
      problems.push({ line: row.line, field, code, message, ...(firstLine ? { firstLine } : {}) })
    const categoryId = categories.get(fold(row.category))
    const subcategoryId =
      categoryId === undefined ? undefined : subs.get(`${categoryId}:${fold(row.subcategory)}`)
    if (categoryId === undefined)
      problem(
        'Category',
        'unknownCategory',
        `Line ${row.line}: the category "${row.category}" is not in the catalogue`,
      )
    else if (subcategoryId === undefined)
      problem(
        'Subcategory',
        'unknownSubcategory',
        `Line ${row.line}: the subcategory "${row.subcategory}" is not in the category "${row.category}"`,
      )
    if (!row.names.en) problem(column('en'), 'emptyName', `Line ${row.line}: the skill has no English name`)
    for (const l of locales) {
      if (row.names[l].length > NAME_MAX)
        problem(column(l), 'tooLong', `Line ${row.line}: the name is longer than ${NAME_MAX} characters`)
      else if (formulaStart.test(row.names[l]))
        problem(column(l), 'formula', `Line ${row.line}: a name must not start with =, +, - or @`)
    }
    const key = `${subcategoryId ?? row.subcategory}:${fold(row.names.en)}`
    const first = seen.get(key)
    if (row.names.en && first)
      problem(column('en'), 'duplicateInSheet', `Line ${row.line}: the same skill as line ${first}`, first)
    else seen.set(key, row.line)
    if (problems.length > before || subcategoryId === undefined) continue

    const names = Object.fromEntries(locales.map((l) => [l, row.names[l] || row.names.en])) as Record<
      Locale,
      string
    >
    const skillId = skills.get(fold(names.en))
    if (skillId === undefined) {
      const entry = added.get(fold(names.en)) ?? { names, subcategoryIds: [] }
      entry.subcategoryIds.push(subcategoryId)
      added.set(fold(names.en), entry)
    } else if (links.has(`${subcategoryId}:${skillId}`)) unchanged++
    else linked.push({ subcategoryId, skillId })
  }
  return { rows: rows.length, added: [...added.values()], linked, unchanged, problems }
}
