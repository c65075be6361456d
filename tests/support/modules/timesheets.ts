import type { Db } from '#server/db/database.ts'
import type { moduleTestApi } from '../../integration/module-api.ts'

// Test helpers for timesheets (decision 324): an hourly contract made the way users make it (an
// hourly project, a proposal of a rate and hours a week, accepted), moved back to have started some
// weeks ago so past days can be logged.
type Call = ReturnType<typeof moduleTestApi>['call']
type U = { id: number; token: string }

export async function hourlyContractFor(
  call: Call,
  database: Db,
  client: U,
  freelancer: U,
  { rateMinor = 8000, limitHours = 40, startedDaysAgo = 28 } = {},
) {
  const sub = await database.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const ok = async (answer: Promise<{ status: number; text: string; json: any }>) => {
    const a = await answer
    if (a.status !== 200) throw new Error(a.text)
    return a.json
  }
  const project = await ok(
    call('POST', 'projects', {
      token: client.token,
      body: {
        title: 'Site supervision of a steel frame, by the hour',
        description:
          'Supervise the erection of a steel frame on site a few hours a week and report each visit.',
        subcategoryId: sub.id,
        budgetType: 'hourly',
        budgetMinMinor: rateMinor,
        budgetMinor: rateMinor,
        hoursPerWeek: limitHours,
        currency: 'EUR',
        remote: true,
        publish: true,
      },
    }),
  )
  const proposal = await ok(
    call('POST', `projects/${project.id}/proposal`, {
      token: freelancer.token,
      body: {
        coverLetter: 'I supervise steel erection every week and write a short report after each visit.',
        bidMinor: rateMinor,
        durationDays: 90,
        weeklyHours: limitHours,
      },
    }),
  )
  const contract = await ok(
    call('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, { token: client.token }),
  )
  const started = new Date(Date.now() - startedDaysAgo * 86_400_000).toISOString()
  await database.db
    .updateTable('contract')
    .set({ created_at: started })
    .where('id', '=', contract.id)
    .execute()
  return { projectId: project.id as number, contractId: contract.id as number }
}

/** A day `n` days before today (UTC), as YYYY-MM-DD. */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

/** The Monday of the week `n` weeks before this one. */
export function mondayWeeksAgo(n: number) {
  const today = new Date()
  const weekday = (today.getUTCDay() + 6) % 7
  return daysAgo(weekday + 7 * n)
}
