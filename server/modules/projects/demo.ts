import type { DemoStep } from '#server/db/demo-step.ts'
import { demoClients, demoFreelancers, demoProjects } from '#server/db/seed-data/demo.ts'
import { Role } from '../identity/permissions.ts'
import type { Caller } from '#server/api/handler.ts'

// The demo projects, written through the projects service (state machines, activity and search
// index as for any user): every demo project is published; the first ones get proposals from the
// demo freelancers whose subcategories fit, and the first of those is accepted, so a newcomer sees
// open projects, pending proposals and a running contract. User content, so English only.
export const projectsDemoStep: DemoStep = async ({ services, accounts, log }) => {
  const projects = services.projects
  const catalogue = await services.catalogue.tree('en')
  const subs = new Map(catalogue.flatMap((c) => c.subcategories.map((s) => [s.slug, s.id] as const)))
  const skills = new Map((await services.catalogue.skills('en')).map((s) => [s.slug, s.id]))
  const clientRole = new Map(
    demoClients.map((c) => [c.email, c.kind === 'company' ? Role.Company : Role.Client]),
  )
  let proposalsMade = 0
  for (const [i, d] of demoProjects.entries()) {
    const clientId = accounts.get(d.clientEmail)
    const subcategoryId = subs.get(d.subcategory)
    if (!clientId || !subcategoryId) continue
    const client: Caller = {
      userId: clientId,
      sessionId: 'demo',
      roles: [clientRole.get(d.clientEmail) ?? Role.Client],
    }
    const half = Math.round(d.budgetMinor / 2)
    const project = await projects.create(
      client,
      {
        title: d.title,
        description: d.description,
        subcategoryId,
        skillIds: d.skills.map((s) => skills.get(s)).filter((s): s is number => !!s),
        budgetType: d.budgetType,
        budgetMinor: d.budgetMinor,
        visibility: 'public',
        ...d.hourly,
        currency: d.currency,
        durationDays: d.durationDays,
        experienceLevel: d.experienceLevel,
        remote: d.remote,
        location: d.location,
        installments:
          d.budgetType === 'fixed'
            ? [
                { title: 'First half', amountMinor: half },
                { title: 'Second half', amountMinor: d.budgetMinor - half },
              ]
            : [],
        publish: true,
      },
      'en',
    )
    if (i >= 6) continue
    const fitting = demoFreelancers.filter(
      (f) => f.subcategories.includes(d.subcategory) || f.skills.some((s) => d.skills.includes(s)),
    )
    const proposalIds: number[] = []
    for (const f of fitting.slice(0, 2)) {
      const userId = accounts.get(f.email)
      if (!userId) continue
      const bid = d.budgetType === 'fixed' ? Math.round((d.budgetMinor * 0.9) / 100) * 100 : f.hourlyRateMinor
      const proposal = await projects.propose(
        { userId, sessionId: 'demo', roles: [Role.Freelancer] },
        project.id,
        {
          coverLetter: `${f.title}. ${f.overview.split('. ')[0]}. I can start next week and deliver within ${d.durationDays} days.`,
          bidMinor: bid,
          durationDays: d.durationDays,
          weeklyHours: d.hourly?.hoursPerWeek,
          installments: [],
        },
      )
      proposalIds.push(proposal.id)
      proposalsMade++
    }
    if (i === 0 && proposalIds[0]) await projects.accept(client, proposalIds[0], project.id)
  }
  log.info({ projects: demoProjects.length, proposals: proposalsMade }, 'demo projects ready')
}
