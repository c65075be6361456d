import { z } from 'zod'
import { budgetTypes, limits } from '../rules.ts'
import { contractStates, installmentStates } from '../machines.ts'
import { attachment, person, problem } from './fields.ts'
import { openWeekStates } from '../timesheets/rules.ts'

/** The note a move of an installment may carry (submitted work, changes asked for). */
export const noteInput = z.object({
  note: z.string().trim().max(limits.note, problem('tooLong')).optional(),
})

/** Why a client declines a proposal (optional; the freelancer reads it). */
export const rejectInput = z.object({
  reason: z.string().trim().max(limits.note, problem('tooLong')).optional(),
})

export const installment = z.object({
  id: z.number(),
  position: z.number(),
  title: z.string(),
  amountMinor: z.number(),
  currency: z.string(),
  dueDate: z.string().nullable(),
  status: z.enum(installmentStates),
  submissionNote: z.string().nullable(),
  feedback: z.string().nullable(),
  files: z.array(attachment),
  /** How many deliverables of the register belong to it: if any, issuing them is its submission (decision 318). */
  deliverables: z.number(),
})

/** The earliest week of an hourly contract's timesheet that is not settled, and why (decision 334). */
export const openWeekOut = z.object({ weekStart: z.string(), status: z.enum(openWeekStates) }).nullable()

export const contractOut = z.object({
  id: z.number(),
  projectId: z.number(),
  projectTitle: z.string(),
  proposalId: z.number(),
  client: person,
  freelancer: person,
  status: z.enum(contractStates),
  /** The agreed price; an hourly contract starts at 0 and grows with its approved weeks. */
  amountMinor: z.number(),
  currency: z.string(),
  /** How the contract is paid: by installments ('fixed') or by the hour within a weekly limit ('hourly', decision 323). */
  billing: z.enum(budgetTypes),
  /** An hourly contract's rate in minor units (null for a fixed price). */
  hourlyRateMinor: z.number().nullable(),
  /** The most hours a week an hourly contract bills (null for a fixed price). */
  weeklyLimitHours: z.number().nullable(),
  /**
   * An hourly contract's timesheet now (null for a fixed price): this week's hours, and the earliest
   * week not settled — time not submitted, submitted, disputed, or approved and unpaid — which keeps
   * the project from being completed (decision 334).
   */
  hourly: z
    .object({
      thisWeekHours: z.number(),
      openWeek: openWeekOut,
    })
    .nullable(),
  /** The chat room of the contract's two parties (opened when the proposal was accepted). */
  roomId: z.number(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  installments: z.array(installment),
})

export const activity = z.object({
  id: z.number(),
  entity: z.string(),
  entityId: z.number(),
  action: z.string(),
  fromState: z.string().nullable(),
  toState: z.string(),
  note: z.string().nullable(),
  /** An amount the step names (a refund asked), worded by the reader's screen (decision 321). */
  amount: z.object({ minor: z.number(), currency: z.string() }).nullable(),
  actor: person.nullable(),
  createdAt: z.string(),
})
