import { z } from 'zod'
import { endpoint, shownName } from '#server/api/contract.ts'
import { notification } from '../notifications/contract.ts'
import { installmentStates, projectStates, proposalStates } from '../projects/machines.ts'
import { openWeekOut } from '../projects/schemas/work.ts'

// The dashboard (docs/product.md §2 `dashboard`, issue 15 item 2): in one call, what waits on the caller
// across the marketplace, each item named by the ids its page needs. Parts that do not apply to
// the caller's kind of account are null (a client has no proposals, a freelancer no projects).
// Chat does not exist yet: its unread count is null until it does, never a made-up zero.
const person = z.object({ id: z.number(), name: shownName, imageUrl: z.string().nullable() })
const side = z.enum(['client', 'freelancer'])
const counts = <T extends readonly [string, ...string[]]>(states: T) =>
  z.object(Object.fromEntries(states.map((s) => [s, z.number()])) as Record<T[number], z.ZodNumber>)

export const dashboard = z.object({
  notifications: z.object({ unread: z.number(), latest: z.array(notification) }),
  messages: z.object({ unread: z.number().nullable() }),
  profile: z.object({ percent: z.number(), missing: z.array(z.string()) }).nullable(),
  reviewsToWrite: z.number(),
  projects: z
    .object({
      total: z.number(),
      items: z.array(
        z.object({
          id: z.number(),
          title: z.string(),
          pendingProposals: z.number(),
          latestProposalAt: z.string(),
        }),
      ),
      byState: counts(projectStates),
    })
    .nullable(),
  proposals: z
    .object({
      items: z.array(
        z.object({
          id: z.number(),
          projectId: z.number(),
          projectTitle: z.string(),
          status: z.enum(proposalStates),
          bidMinor: z.number(),
          /** On an hourly project, the hours a week offered: the bid is then a rate per hour. */
          weeklyHours: z.number().nullable(),
          currency: z.string(),
          updatedAt: z.string(),
        }),
      ),
      byState: counts(proposalStates),
    })
    .nullable(),
  contracts: z.object({
    total: z.number(),
    items: z.array(
      z.object({
        contractId: z.number(),
        projectId: z.number(),
        projectTitle: z.string(),
        role: side,
        other: person,
        waitingOn: side,
        yourTurn: z.boolean(),
        next: z
          .object({
            id: z.number(),
            position: z.number(),
            title: z.string(),
            amountMinor: z.number(),
            currency: z.string(),
            dueDate: z.string().nullable(),
            status: z.enum(installmentStates),
          })
          .nullable(),
        installmentsDone: z.number(),
        installmentsTotal: z.number(),
        /** An hourly contract's rate, weekly limit, this week's hours and earliest open week (decision 334); null for a fixed price. */
        hourly: z
          .object({
            rateMinor: z.number(),
            currency: z.string(),
            weeklyLimitHours: z.number().nullable(),
            thisWeekHours: z.number(),
            openWeek: openWeekOut,
          })
          .nullable(),
      }),
    ),
  }),
})
export type Dashboard = z.output<typeof dashboard>

export const dashboardContract = {
  mine: endpoint({
    method: 'GET',
    path: 'dashboard',
    tag: 'Dashboard',
    access: 'user',
    response: dashboard,
    summary:
      "What waits on the caller: unread notifications, a client's projects with proposals to decide, a freelancer's proposals, each active contract's next step and whose move it is, reviews to write and profile completeness",
  }),
}
