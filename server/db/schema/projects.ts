import type { Generated } from 'kysely'

// Projects, proposals and contracts (issue 6). States change only through
// server/modules/projects/machines.ts. The full-text table `project_search` differs per database
// and is reached through raw SQL in server/modules/projects/search-index.ts only.
export type ProjectTable = {
  id: Generated<number>
  client_id: number
  status: string
  title: string
  description: string
  category_id: number | null
  subcategory_id: number | null
  budget_type: string
  budget_minor: number
  /** Hourly projects: the lowest rate (budget_minor is the highest). */
  budget_min_minor: number | null
  hours_per_week: number | null
  currency: string
  duration_days: number | null
  deadline: string | null
  experience_level: string | null
  remote: number
  location: string | null
  country: string | null
  installment_plan: Generated<string>
  proposal_count: Generated<number>
  created_at: string
  updated_at: string
  published_at: string | null
  /** public | signed_in | invited (decision 335). */
  visibility: Generated<string>
  /** When the client sent it for review (the queue's order; decision 339). */
  review_submitted_at: Generated<string | null>
  /** Why an admin returned it, shown to its client. */
  review_reason: Generated<string | null>
}
/** The one review rule (id 1); no row is the rule "none" (decision 339). */
export type ProjectReviewRuleTable = {
  id: number
  kind: string
  category_ids: Generated<string>
  updated_by: number | null
  updated_at: string
}
export type ProjectSkillTable = { project_id: number; skill_id: number }
export type ProposalTable = {
  id: Generated<number>
  project_id: number
  freelancer_id: number
  status: string
  cover_letter: string
  bid_minor: number
  currency: string
  duration_days: number
  installment_plan: Generated<string>
  /** Hourly proposals: the hours a week offered at bid_minor an hour. */
  weekly_hours: number | null
  revision: Generated<number>
  reject_reason: string | null
  created_at: string
  updated_at: string
  decided_at: string | null
}
export type ProposalRevisionTable = {
  id: Generated<number>
  proposal_id: number
  revision: number
  cover_letter: string
  bid_minor: number
  duration_days: number
  installment_plan: string
  weekly_hours: number | null
  created_at: string
}
export type ContractTable = {
  id: Generated<number>
  project_id: number
  proposal_id: number
  client_id: number
  freelancer_id: number
  status: string
  amount_minor: number
  currency: string
  /** fixed: paid by installments; hourly: by approved weekly timesheets. */
  billing: Generated<string>
  hourly_rate_minor: number | null
  weekly_limit_hours: number | null
  room_id: string
  created_at: string
  updated_at: string
  ended_at: string | null
}
export type InstallmentTable = {
  id: Generated<number>
  contract_id: number
  position: number
  title: string
  amount_minor: number
  currency: string
  due_date: string | null
  status: string
  submission_note: string | null
  feedback: string | null
  /** the part of the price given back by refunds (migration 0024) */
  refunded_minor: Generated<number>
  created_at: string
  updated_at: string
}
export type ProjectFileTable = {
  id: Generated<number>
  project_id: number
  file_id: number
  proposal_id: number | null
  installment_id: number | null
  uploaded_by: number
  created_at: string
}
export type ProjectActivityTable = {
  id: Generated<number>
  project_id: number
  actor_id: number | null
  entity: string
  entity_id: number
  action: string
  from_state: string | null
  to_state: string
  note: string | null
  /** Facts a reader's screen words (an amount asked back), as JSON; null before migration 0039. */
  params: string | null
  created_at: string
}
export type ProjectFollowTable = { user_id: number; project_id: number; created_at: string }
export type ProjectCommentTable = {
  id: Generated<number>
  project_id: number
  user_id: number
  parent_id: number | null
  body: string
  created_at: string
}
export type ReviewTable = {
  id: Generated<number>
  contract_id: number
  project_id: number
  author_id: number
  subject_id: number
  rating: number
  body: string
  created_at: string
  visible_from: string
}

/** A client's invitation of a freelancer to one of their open projects (decision 335). */
export type ProjectInvitationTable = {
  id: Generated<number>
  project_id: number
  freelancer_id: number
  client_id: number
  message: string
  /** pending | accepted | declined */
  status: string
  decline_reason: string | null
  created_at: string
  decided_at: string | null
}

/** A client's direct offer to one freelancer: its project holds the work and the terms (decision 342). */
export type DirectOfferTable = {
  id: Generated<number>
  project_id: number
  client_id: number
  freelancer_id: number
  message: string | null
  /** pending | accepted | declined | withdrawn | expired */
  status: string
  decline_reason: string | null
  proposal_id: number | null
  expires_at: string
  created_at: string
  decided_at: string | null
}

export interface ProjectsTables {
  project: ProjectTable
  project_review_rule: ProjectReviewRuleTable
  project_skill: ProjectSkillTable
  proposal: ProposalTable
  proposal_revision: ProposalRevisionTable
  contract: ContractTable
  installment: InstallmentTable
  project_file: ProjectFileTable
  project_activity: ProjectActivityTable
  project_wishlist: ProjectFollowTable
  project_subscription: ProjectFollowTable
  project_comment: ProjectCommentTable
  review: ReviewTable
  project_invitation: ProjectInvitationTable
  direct_offer: DirectOfferTable
}
