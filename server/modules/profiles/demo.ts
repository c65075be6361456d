import type { DemoStep } from '#server/db/demo-step.ts'
import { demoClients, demoFreelancers } from '#server/db/seed-data/demo.ts'
import { Role } from '../identity/permissions.ts'
import type { Caller } from '#server/api/handler.ts'

// Demo profiles for the demo accounts, written through the profiles service (so the search index
// and completeness are kept as for any user). User content, so English only.
const levelFor = (i: number) => (['native', 'fluent', 'conversational'] as const)[Math.min(i, 2)]
const availabilityFor = (i: number) => (['full-time', 'part-time', 'as-needed'] as const)[i % 3]

export const profilesDemoStep: DemoStep = async ({ services, accounts }) => {
  const profiles = services.profiles
  const catalogue = await services.catalogue.tree('en')
  const subs = new Map(
    catalogue.flatMap((c) => c.subcategories.map((s) => [s.slug, { id: s.id, categoryId: c.id }] as const)),
  )
  const skills = new Map((await services.catalogue.skills('en')).map((s) => [s.slug, s.id]))
  const industries = new Map((await services.catalogue.industries('en')).map((i) => [i.slug, i.id]))

  for (const [i, f] of demoFreelancers.entries()) {
    const userId = accounts.get(f.email)
    if (!userId) continue
    const caller: Caller = { userId, sessionId: 'demo', roles: [Role.Freelancer] }
    const p = profiles.freelancer
    await p.titleOverview(caller, 'en', { title: f.title, overview: f.overview })
    await p.experienceLevel(caller, 'en', { experienceLevel: f.experienceLevel })
    await p.yearsOfExperience(caller, 'en', {
      yearsOfExperience:
        f.experienceLevel === 'expert' ? 12 + i : f.experienceLevel === 'intermediate' ? 6 + i : 2,
    })
    await p.country(caller, 'en', { country: f.country, city: f.city })
    await p.availability(caller, 'en', { availability: availabilityFor(i) })
    await p.hourlyRate(caller, 'en', { amountMinor: f.hourlyRateMinor, currency: f.currency })
    const mine = f.subcategories.map((s) => subs.get(s)).filter((s) => !!s)
    if (mine.length) {
      const categoryId = mine[0].categoryId
      await p.categorization(caller, 'en', {
        categoryId,
        subcategoryIds: mine.filter((s) => s.categoryId === categoryId).map((s) => s.id),
        skillIds: f.skills.map((s) => skills.get(s)).filter((s): s is number => s !== undefined),
      })
    }
    for (const [n, code] of f.languages.entries())
      await p.languageAdd(caller, 'en', { code, level: levelFor(n) }).catch(() => undefined)
  }

  for (const c of demoClients) {
    const userId = accounts.get(c.email)
    if (!userId) continue
    const kind = c.kind === 'company' ? 'company' : 'individual'
    const caller: Caller = {
      userId,
      sessionId: 'demo',
      roles: [kind === 'company' ? Role.Company : Role.Client],
    }
    const industryId = industries.get(c.industry) ?? null
    if (kind === 'company')
      await profiles.clients.companyBasics(caller, 'en', { country: c.country, city: c.city, industryId })
    else await profiles.clients.basics(caller, 'en', { country: c.country, city: c.city, industryId })
    await profiles.clients.description(caller, kind, 'en', { description: c.bio })
  }
}
