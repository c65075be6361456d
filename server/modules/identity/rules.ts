import type { RateLimitRule } from '#server/lib/rate-limit.ts'
import type { SignupKind } from './contract.ts'
import { Role } from './permissions.ts'

/** Outbox topic: every session of `{ userId }` ended by an admin; its handler closes their hub connections (server/api/index.ts). */
export const SESSIONS_ENDED_TOPIC = 'identity.sessionsEnded'

// Lifetimes (docs/decisions/003-identity.md).
export const lifetimes = {
  sessionMs: 30 * 24 * 3600_000,
  verifyEmailMs: 48 * 3600_000,
  resetPasswordMs: 3600_000,
  changeEmailMs: 24 * 3600_000,
  oidcFlowMs: 10 * 60_000,
  oidcTicketMs: 30 * 60_000,
}

const minute = 60_000
// Sign-in attempts (decision 091): every attempt counts against its client address; an attempt from
// a device that signed in to the account before counts against that device only, any other against
// the address being signed in to, so guessing from elsewhere locks out only other unknown devices.
export const defaultLimits = {
  loginIp: { name: 'login:ip', limit: 30, windowMs: 15 * minute },
  loginEmail: { name: 'login:email', limit: 8, windowMs: 15 * minute },
  loginDevice: { name: 'login:device', limit: 10, windowMs: 15 * minute },
  registerIp: { name: 'register:ip', limit: 20, windowMs: 60 * minute },
  registerEmail: { name: 'register:email', limit: 5, windowMs: 60 * minute },
  forgotIp: { name: 'forgot:ip', limit: 10, windowMs: 60 * minute },
  forgotEmail: { name: 'forgot:email', limit: 3, windowMs: 60 * minute },
  verifyIp: { name: 'verify:ip', limit: 30, windowMs: 15 * minute },
  verifyEmail: { name: 'verify:email', limit: 3, windowMs: 60 * minute },
} satisfies Record<string, RateLimitRule>
export type Limits = typeof defaultLimits

// Wrong second-factor codes: 6 per account in 15 minutes (with three codes valid at a time, a
// guesser has about 1 chance in 55,000 per window); a right code clears the count.
export const secondFactorLimit: RateLimitRule = {
  name: 'login:second-factor',
  limit: 6,
  windowMs: 15 * 60_000,
}

// Reputation points (wengazPoint), each awarded once per reason: the account's own steps here, a
// completed contract (per contract, to both sides) and a visible five-star review (to its subject)
// by the projects module. Account settings explain them from these figures.
export const pointRules = {
  emailVerified: 10,
  phoneAdded: 5,
  imageAdded: 5,
  profileComplete: 10,
  contractCompleted: 10,
  fiveStarReview: 5,
}

export const roleOfKind: Record<SignupKind | 'admin', number> = {
  client: Role.Client,
  company: Role.Company,
  freelancer: Role.Freelancer,
  admin: Role.SuperAdmin,
}
