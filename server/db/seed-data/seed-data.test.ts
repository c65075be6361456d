import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { areas, skills, softwareSkillSlugs } from './catalogue.ts'
import {
  aboutUs,
  blogPosts,
  faq,
  homeBoxes,
  pageTitles,
  partnerLogos,
  services,
  terms,
  whyWorkneer,
} from './content.ts'
import { demoClients, demoFreelancers, demoProjects } from './demo.ts'
import { countries, experienceLevels, industries, languages } from './reference.ts'
import { locales, type Localized } from './types.ts'

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
// The category and logo SVGs are served from public/ (moved there from ./images); image paths in
// the seed data are public URLs, so check the files they point at.
const publicDir = fileURLToPath(new URL('../../../public', import.meta.url))

const isLocalized = (value: unknown): value is Localized =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).sort().join() === [...locales].sort().join()

/** Every Localized value reachable from `root`, with a readable path. */
function collectLocalized(root: unknown, path: string, out: Array<{ path: string; value: Localized }> = []) {
  if (isLocalized(root)) out.push({ path, value: root })
  else if (Array.isArray(root))
    root.forEach((item, i) =>
      collectLocalized(item, `${path}[${(item as { slug?: string })?.slug ?? i}]`, out),
    )
  else if (typeof root === 'object' && root !== null)
    for (const [k, v] of Object.entries(root)) collectLocalized(v, `${path}.${k}`, out)
  return out
}

const allLocalized = collectLocalized(
  {
    areas,
    skills,
    industries,
    experienceLevels,
    faq,
    blogPosts,
    homeBoxes,
    services,
    aboutUs,
    whyWorkneer,
    terms,
    pageTitles,
  },
  'seed',
)

const expectUniqueKebab = (label: string, slugs: string[]) => {
  for (const slug of slugs) expect(slug, `${label}: ${slug}`).toMatch(KEBAB)
  const dupes = slugs.filter((s, i) => slugs.indexOf(s) !== i)
  expect(dupes, `${label}: duplicate slugs`).toEqual([])
}

const allSubcategories = areas.flatMap((a) => a.subcategories)
const skillSlugs = new Set(skills.map((s) => s.slug))
const subcategorySlugs = new Set(allSubcategories.map((s) => s.slug))
const levelSlugs = new Set(experienceLevels.map((l) => l.slug))

describe('localized texts', () => {
  it('finds every localized value it is meant to check', () => {
    const expected =
      skills.length +
      areas.length * 2 +
      allSubcategories.length +
      industries.length +
      experienceLevels.length * 2 +
      faq.length * 2 +
      blogPosts.length * 3 +
      homeBoxes.length * 2 +
      services.length * 2 +
      3 /* pages */ +
      3 /* page titles */
    expect(allLocalized.length).toBe(expected)
  })

  it('has five non-empty strings in every Localized value', () => {
    for (const { path, value } of allLocalized) {
      for (const locale of locales) {
        expect(typeof value[locale], `${path}.${locale}`).toBe('string')
        expect(value[locale].trim(), `${path}.${locale} is empty`).not.toBe('')
        expect(value[locale], `${path}.${locale} has stray whitespace`).toBe(value[locale].trim())
      }
    }
  })

  it('is actually translated (tool names excepted)', () => {
    const software = new Set(softwareSkillSlugs)
    for (const { path, value } of allLocalized) {
      if (software.has(path.match(/^seed\.skills\[(.+)\]\.name$/)?.[1] ?? '')) continue
      expect(new Set(Object.values(value)).size, `${path} is identical in all languages`).toBeGreaterThan(1)
      // Longer texts must differ from English in every language (catches copy-paste leftovers).
      if (value.en.length > 25) {
        for (const locale of locales)
          if (locale !== 'en') expect(value[locale], `${path}.${locale} equals en`).not.toBe(value.en)
      }
    }
  })

  it('keeps tool names untranslated', () => {
    for (const slug of softwareSkillSlugs) {
      const skill = skills.find((s) => s.slug === slug)!
      expect(new Set(Object.values(skill.name)).size, slug).toBe(1)
    }
  })

  it('states no fee percentage anywhere', () => {
    for (const { path, value } of allLocalized)
      for (const locale of locales) expect(value[locale], `${path}.${locale}`).not.toMatch(/\d\s?%/)
  })
})

describe('catalogue', () => {
  it('has exactly the six areas of the specification', () => {
    expect(areas.map((a) => a.slug).sort()).toEqual(
      [
        'architecture-design',
        'economics',
        'engineering',
        'environmental',
        'planning-strategy',
        'project-construction-management',
      ].sort(),
    )
  })

  it('has 4–7 subcategories per area, with known skills', () => {
    for (const area of areas) {
      expect(area.subcategories.length, area.slug).toBeGreaterThanOrEqual(4)
      expect(area.subcategories.length, area.slug).toBeLessThanOrEqual(7)
      expect(area.image).toBe(`/images/categories/${area.slug}.svg`)
      for (const sub of area.subcategories) {
        expect(sub.skills.length, sub.slug).toBeGreaterThanOrEqual(3)
        for (const skill of sub.skills) expect(skillSlugs.has(skill), `${sub.slug} → ${skill}`).toBe(true)
        expect(new Set(sub.skills).size, `${sub.slug} lists a skill twice`).toBe(sub.skills.length)
      }
    }
  })

  it('has 60–100 skills, each used by at least one subcategory', () => {
    expect(skills.length).toBeGreaterThanOrEqual(60)
    expect(skills.length).toBeLessThanOrEqual(100)
    const used = new Set(allSubcategories.flatMap((s) => s.skills))
    expect(skills.filter((s) => !used.has(s.slug)).map((s) => s.slug)).toEqual([])
  })

  it('uses unique kebab-case slugs', () => {
    expectUniqueKebab(
      'areas',
      areas.map((a) => a.slug),
    )
    expectUniqueKebab(
      'subcategories',
      allSubcategories.map((s) => s.slug),
    )
    expectUniqueKebab(
      'skills',
      skills.map((s) => s.slug),
    )
  })
})

describe('reference data', () => {
  it('lists all 249 ISO 3166-1 alpha-2 countries, each known to Intl', () => {
    expect(countries).toHaveLength(249)
    expect(new Set(countries).size).toBe(249)
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    for (const code of countries) {
      expect(code).toMatch(/^[A-Z]{2}$/)
      expect(names.of(code), code).not.toBe(code)
    }
  })

  it('lists about forty ISO 639-1 languages, each known to Intl, including the five UI languages', () => {
    expect(languages.length).toBeGreaterThanOrEqual(35)
    expect(languages.length).toBeLessThanOrEqual(50)
    expect(new Set(languages).size).toBe(languages.length)
    const names = new Intl.DisplayNames(['en'], { type: 'language' })
    for (const code of languages) {
      expect(code).toMatch(/^[a-z]{2}$/)
      expect(names.of(code), code).not.toBe(code)
    }
    for (const locale of locales) expect(languages).toContain(locale)
  })

  it('has 15–25 industries and the three experience levels', () => {
    expect(industries.length).toBeGreaterThanOrEqual(15)
    expect(industries.length).toBeLessThanOrEqual(25)
    expectUniqueKebab(
      'industries',
      industries.map((i) => i.slug),
    )
    expect(experienceLevels.map((l) => l.slug)).toEqual(['entry', 'intermediate', 'expert'])
  })
})

describe('content', () => {
  it('has 12–16 FAQ entries with a valid audience', () => {
    expect(faq.length).toBeGreaterThanOrEqual(12)
    expect(faq.length).toBeLessThanOrEqual(16)
    expectUniqueKebab(
      'faq',
      faq.map((f) => f.slug),
    )
    for (const entry of faq) expect(['client', 'freelancer', 'all']).toContain(entry.audience)
  })

  it('has six blog posts with 3–6 paragraphs per language and a 2026 date', () => {
    expect(blogPosts).toHaveLength(6)
    expectUniqueKebab(
      'blog posts',
      blogPosts.map((p) => p.slug),
    )
    for (const post of blogPosts) {
      const counts = locales.map((l) => post.body[l].split('\n\n').length)
      for (const n of counts) {
        expect(n, post.slug).toBeGreaterThanOrEqual(3)
        expect(n, post.slug).toBeLessThanOrEqual(6)
      }
      expect(new Set(counts).size, `${post.slug}: paragraph count differs between languages`).toBe(1)
      for (const l of locales)
        for (const p of post.body[l].split('\n\n')) expect(p.trim(), `${post.slug}.${l}`).toBe(p)
      expect(post.publishedAt).toMatch(/^2026-\d{2}-\d{2}$/)
      expect(new Date(`${post.publishedAt}T00:00:00Z`).toISOString().slice(0, 10)).toBe(post.publishedAt)
      expect(post.author.trim()).not.toBe('')
      expect(post.tags.length).toBeGreaterThan(0)
      for (const tag of post.tags) expect(tag).toMatch(KEBAB)
    }
  })

  it('has 3–4 home boxes and 4–6 services pointing at real areas', () => {
    expect(homeBoxes.length).toBeGreaterThanOrEqual(3)
    expect(homeBoxes.length).toBeLessThanOrEqual(4)
    expectUniqueKebab(
      'home boxes',
      homeBoxes.map((b) => b.slug),
    )
    for (const box of homeBoxes) expect(box.icon).toMatch(KEBAB)
    expect(services.length).toBeGreaterThanOrEqual(4)
    expect(services.length).toBeLessThanOrEqual(6)
    expectUniqueKebab(
      'services',
      services.map((s) => s.slug),
    )
    const areaSlugs = new Set(areas.map((a) => a.slug))
    for (const s of services) expect(areaSlugs.has(s.areaSlug), s.slug).toBe(true)
  })

  it('has terms with 8–12 consecutively numbered sections in every language', () => {
    const counts = locales.map((l) => {
      const numbers = terms[l].split('\n\n').map((section) => Number(section.match(/^(\d+)\. \S/)?.[1]))
      expect(numbers, l).toEqual(numbers.map((_, i) => i + 1))
      return numbers.length
    })
    for (const n of counts) {
      expect(n).toBeGreaterThanOrEqual(8)
      expect(n).toBeLessThanOrEqual(12)
    }
    expect(new Set(counts).size).toBe(1)
  })

  it('has about and why pages of a few paragraphs each', () => {
    for (const page of [aboutUs, whyWorkneer]) {
      for (const l of locales) expect(page[l].split('\n\n').length, l).toBeGreaterThanOrEqual(3)
    }
  })
})

describe('demo data', () => {
  const clientEmails = new Set(demoClients.map((c) => c.email))
  const countrySet = new Set(countries)

  it('has two individual and two company clients', () => {
    expect(demoClients).toHaveLength(4)
    expect(demoClients.filter((c) => c.kind === 'individual' && !c.companyName)).toHaveLength(2)
    expect(demoClients.filter((c) => c.kind === 'company' && c.companyName)).toHaveLength(2)
    for (const c of demoClients) {
      expect(countrySet.has(c.country), c.email).toBe(true)
      expect(
        industries.some((i) => i.slug === c.industry),
        c.email,
      ).toBe(true)
      expect(c.bio.trim()).not.toBe('')
    }
  })

  it('uses unique example.com addresses', () => {
    const emails = [...demoClients, ...demoFreelancers].map((u) => u.email)
    expect(new Set(emails).size).toBe(emails.length)
    for (const email of emails) expect(email).toMatch(/^[a-z0-9.]+@example\.com$/)
  })

  it('has eight freelancers from different countries with known skills and subcategories', () => {
    expect(demoFreelancers).toHaveLength(8)
    expect(new Set(demoFreelancers.map((f) => f.country)).size).toBe(8)
    const languageSet = new Set(languages)
    for (const f of demoFreelancers) {
      for (const s of f.skills) expect(skillSlugs.has(s), `${f.email} → ${s}`).toBe(true)
      for (const s of f.subcategories) expect(subcategorySlugs.has(s), `${f.email} → ${s}`).toBe(true)
      for (const l of f.languages) expect(languageSet.has(l), `${f.email} → ${l}`).toBe(true)
      expect(countrySet.has(f.country), f.email).toBe(true)
      expect(levelSlugs.has(f.experienceLevel), f.email).toBe(true)
      expect(Number.isInteger(f.hourlyRateMinor) && f.hourlyRateMinor > 0, f.email).toBe(true)
      expect(['EUR', 'USD']).toContain(f.currency)
    }
  })

  it('has twelve projects that reference existing clients, subcategories and skills', () => {
    expect(demoProjects).toHaveLength(12)
    expectUniqueKebab(
      'demo projects',
      demoProjects.map((p) => p.slug),
    )
    for (const p of demoProjects) {
      expect(clientEmails.has(p.clientEmail), `${p.slug} → ${p.clientEmail}`).toBe(true)
      expect(subcategorySlugs.has(p.subcategory), `${p.slug} → ${p.subcategory}`).toBe(true)
      for (const s of p.skills) expect(skillSlugs.has(s), `${p.slug} → ${s}`).toBe(true)
      expect(['fixed', 'hourly']).toContain(p.budgetType)
      expect(Number.isInteger(p.budgetMinor) && p.budgetMinor > 0, p.slug).toBe(true)
      expect(['EUR', 'USD']).toContain(p.currency)
      expect(Number.isInteger(p.durationDays) && p.durationDays > 0, p.slug).toBe(true)
      expect(levelSlugs.has(p.experienceLevel), p.slug).toBe(true)
      if (!p.remote) expect(p.location, `${p.slug} is on site but has no location`).toBeTruthy()
    }
    expect(demoClients.every((c) => demoProjects.some((p) => p.clientEmail === c.email))).toBe(true)
  })
})

describe('images', () => {
  const imagePaths = [...areas.map((a) => a.image), ...partnerLogos.map((l) => l.image)]

  /** Crude well-formedness: every opened element is closed, in order. */
  const balanced = (svg: string) => {
    const stack: string[] = []
    for (const [tag, closing, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)\b[^>]*?(\/?)>/g)) {
      if (selfClosing) continue
      if (!closing) stack.push(name)
      else if (stack.pop() !== name) throw new Error(`unbalanced ${tag}`)
    }
    return stack.length === 0
  }

  it('has one category image per area and one logo per partner, all present in public/', () => {
    expect(partnerLogos).toHaveLength(5)
    for (const logo of partnerLogos) expect(logo.image).toMatch(/^\/images\/logos\/[a-z0-9-]+\.svg$/)
    expect(new Set(imagePaths).size).toBe(imagePaths.length)
    for (const image of imagePaths) expect(existsSync(`${publicDir}${image}`), `public${image}`).toBe(true)
  })

  it('keeps every SVG small, titled and well-formed', () => {
    for (const image of imagePaths) {
      const path = `${publicDir}${image}`
      expect(statSync(path).size, image).toBeLessThan(2048)
      const svg = readFileSync(path, 'utf8').trim()
      expect(svg.startsWith('<svg'), image).toBe(true)
      expect(svg.endsWith('</svg>'), image).toBe(true)
      expect(svg, image).toMatch(/<title>[^<]+<\/title>/)
      expect(svg, image).toContain('xmlns="http://www.w3.org/2000/svg"')
      expect(balanced(svg), image).toBe(true)
    }
  })
})
