import type { Generated } from 'kysely'

// Table shapes as Kysely sees them. Flags are 0/1 integers and timestamps ISO-8601 UTC strings on
// both databases, so services never branch on the dialect.
export const locales = ['en', 'es', 'de', 'it', 'ru'] as const
export type Locale = (typeof locales)[number]

type Localized<P extends string> = { [L in Locale as `${P}_${L}`]: string }

export type CategoryTable = {
  id: Generated<number>
  slug: string
  image_url: string
  sort_order: number
} & Localized<'name'> &
  Localized<'description'>
export type SubcategoryTable = {
  id: Generated<number>
  category_id: number
  slug: string
  sort_order: number
} & Localized<'name'>
export type SkillTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type SubcategorySkillTable = { subcategory_id: number; skill_id: number }
export type IndustryTable = { id: Generated<number>; slug: string } & Localized<'name'>
export type CountryTable = { code: string }
export type LanguageTable = { code: string }

// Identity (issue 3). Timestamps are ISO strings; flags 0/1.
export type AccountType = 'client' | 'company' | 'freelancer' | 'admin'
export type UserStatus = 'Pending' | 'Active' | 'Suspended' | 'Deleted'
export type AppUserTable = {
  id: Generated<number>
  email: string
  email_verified: Generated<number>
  password_hash: string | null
  first_name: string
  last_name: string
  company_name: string | null
  phone_number: string | null
  language: Generated<string>
  account_type: AccountType
  status: UserStatus
  image_file_id: number | null
  provider: Generated<string>
  terms_accepted_at: string | null
  created_at: string
  updated_at: string
}
export type UserRoleTable = { user_id: number; role: number }
export type UserSessionTable = {
  id: string
  user_id: number
  provider: string
  user_agent: string | null
  ip: string | null
  created_at: string
  expires_at: string
  revoked_at: string | null
  /** 'setup': a SuperAdmin signed in without a second factor; this session may only set one up (decision 260). */
  second_factor: string | null
}
export type UserSecondFactorTable = {
  user_id: number
  secret: string
  enabled_at: string | null
  last_step: number
  created_at: string
}
export type UserRecoveryCodeTable = {
  id: Generated<number>
  user_id: number
  code_hash: string
  used_at: string | null
}
export type UserTokenTable = {
  id: Generated<number>
  user_id: number
  purpose: 'verify_email' | 'reset_password' | 'change_email'
  token_hash: string
  data: string | null
  created_at: string
  expires_at: string
  used_at: string | null
}
export type ExternalIdentityTable = {
  id: Generated<number>
  user_id: number
  provider: string
  subject: string
  email: string | null
  created_at: string
}
export type OidcFlowTable = {
  id: string
  provider: string
  code_verifier: string
  nonce: string
  redirect_uri: string
  claims: string | null
  created_at: string
  expires_at: string
}
export type WengazPointEventTable = {
  id: Generated<number>
  user_id: number
  reason: string
  ref: Generated<string>
  points: number
  created_at: string
}
export type AppSecretTable = { name: string; value: string; created_at: string }
export type OutboxTable = {
  id: Generated<number>
  topic: string
  payload: string
  status: Generated<'pending' | 'done' | 'dead'>
  attempts: Generated<number>
  run_after: string
  locked_until: string | null
  last_error: string | null
  created_at: string
  done_at: string | null
}

export type StoredFileTable = {
  id: Generated<number>
  owner_id: number | null
  purpose: string
  original_name: string
  mime: string
  type: string
  attachment_type: number
  size: number
  sha256: string
  storage_key: string
  created_at: string
}

export interface Database {
  category: CategoryTable
  subcategory: SubcategoryTable
  skill: SkillTable
  subcategory_skill: SubcategorySkillTable
  industry: IndustryTable
  country: CountryTable
  stored_file: StoredFileTable
  language: LanguageTable
  app_user: AppUserTable
  user_role: UserRoleTable
  user_session: UserSessionTable
  user_token: UserTokenTable
  user_second_factor: UserSecondFactorTable
  user_recovery_code: UserRecoveryCodeTable
  external_identity: ExternalIdentityTable
  oidc_flow: OidcFlowTable
  wengaz_point_event: WengazPointEventTable
  app_secret: AppSecretTable
  outbox: OutboxTable
  faq_entry: FaqEntryTable
  blog_post: BlogPostTable
  home_box: HomeBoxTable
  service_highlight: ServiceHighlightTable
  partner_logo: PartnerLogoTable
  content_page: ContentPageTable
  content_admin_owned: ContentAdminOwnedTable
  newsletter_subscriber: NewsletterSubscriberTable
  newsletter_confirmation: NewsletterConfirmationTable
  contact_message: ContactMessageTable
  freelancer_profile: FreelancerProfileTable
  freelancer_language: FreelancerLanguageTable
  freelancer_subcategory: FreelancerSubcategoryTable
  freelancer_skill: FreelancerSkillTable
  freelancer_education: FreelancerEducationTable
  freelancer_employment: FreelancerEmploymentTable
  freelancer_certification: FreelancerCertificationTable
  freelancer_portfolio: FreelancerPortfolioTable
  client_profile: ClientProfileTable
  client_subcategory: ClientSubcategoryTable
  payment_method: PaymentMethodTable
  project: ProjectTable
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
  notification: NotificationTable
  seed_marker: SeedMarkerTable
  chat_room: ChatRoomTable
  chat_member: ChatMemberTable
  chat_message: ChatMessageTable
  chat_attachment: ChatAttachmentTable
  ledger_account: LedgerAccountTable
  ledger_transaction: LedgerTransactionTable
  ledger_entry: LedgerEntryTable
  payment: PaymentTable
  payment_installment: PaymentInstallmentTable
  gateway_event: GatewayEventTable
  refund_request: RefundRequestTable
  complaint: ComplaintTable
  complaint_message: ComplaintMessageTable
  complaint_attachment: ComplaintAttachmentTable
  admin_audit: AdminAuditTable
  invoice_counter: InvoiceCounterTable
  invoice: InvoiceTable
  payout: PayoutTable
}

/** A seed that a start loads once (the demo marketplace): begun at `started_at`, whole once `completed_at` is set. */
export type SeedMarkerTable = {
  name: string
  attempts: Generated<number>
  started_at: string
  completed_at: string | null
}

// Content of the public site (issue 4). Texts are per language; flags 0/1; timestamps ISO strings.
export type FaqEntryTable = {
  id: Generated<number>
  slug: string
  audience: string
  sort_order: number
} & Localized<'question'> &
  Localized<'answer'>
export type BlogPostTable = {
  id: Generated<number>
  slug: string
  author: string
  tags: string
  image_url: string | null
  published: number
  published_at: string
  created_at: string
} & Localized<'title'> &
  Localized<'summary'> &
  Localized<'body'>
export type HomeBoxTable = {
  id: Generated<number>
  slug: string
  icon: string
  sort_order: number
} & Localized<'title'> &
  Localized<'body'>
export type ServiceHighlightTable = {
  id: Generated<number>
  slug: string
  area_slug: string
  sort_order: number
} & Localized<'title'> &
  Localized<'body'>
export type PartnerLogoTable = {
  id: Generated<number>
  name: string
  image_url: string
  link_url: string | null
  sort_order: number
}
/** Seeded content rows an admin has changed or deleted (by kind and slug): the seed leaves them alone (decision 240). */
export type ContentAdminOwnedTable = { kind: string; key: string; at: string }
export type ContentPageTable = { slug: string; updated_at: string } & Localized<'title'> & Localized<'body'>
export type NewsletterSubscriberTable = {
  id: Generated<number>
  email: string
  token: string
  language: string
  subscribed_at: string
  unsubscribed_at: string | null
}
export type NewsletterConfirmationTable = {
  id: Generated<number>
  email: string
  language: string
  token_hash: string
  created_at: string
  expires_at: string
  used_at: string | null
}
export type ContactMessageTable = {
  id: Generated<number>
  name: string
  email: string
  subject: string
  message: string
  language: string
  user_id: number | null
  ip: string | null
  created_at: string
}

// Profiles (issue 5). The full-text table `freelancer_search` differs per database and is reached
// through raw SQL in server/modules/profiles/search-index.ts only.
export type FreelancerProfileTable = {
  user_id: number
  title: Generated<string>
  overview: Generated<string>
  description: Generated<string>
  experience_level: string | null
  years_of_experience: number | null
  country: string | null
  city: string | null
  availability: string | null
  hourly_rate_minor: number | null
  currency: string | null
  gender: string | null
  category_id: number | null
  rating_x100: Generated<number>
  rating_count: Generated<number>
  listed: Generated<number>
  completeness: Generated<number>
  rate_sheet_file_id: Generated<number | null>
  created_at: string
  updated_at: string
}
export type FreelancerLanguageTable = { user_id: number; language_code: string; level: string }
export type FreelancerSubcategoryTable = { user_id: number; subcategory_id: number }
export type FreelancerSkillTable = { user_id: number; skill_id: number }
export type FreelancerEducationTable = {
  id: Generated<number>
  user_id: number
  school: string
  degree: string
  field_of_study: string
  start_year: number | null
  end_year: number | null
  description: string
  created_at: string
}
export type FreelancerEmploymentTable = {
  id: Generated<number>
  user_id: number
  company: string
  role: string
  country: string | null
  start_month: string
  end_month: string | null
  description: string
  created_at: string
}
export type FreelancerCertificationTable = {
  id: Generated<number>
  user_id: number
  name: string
  issuer: string
  issued_month: string | null
  credential_url: string | null
  created_at: string
}
export type FreelancerPortfolioTable = {
  id: Generated<number>
  user_id: number
  title: string
  description: string
  project_url: string | null
  completed_month: string | null
  image_file_id: number | null
  document_file_id: number | null
  created_at: string
}
export type ClientProfileTable = {
  user_id: number
  kind: 'individual' | 'company'
  country: string | null
  city: string | null
  industry_id: number | null
  website: string | null
  company_size: string | null
  founded_year: number | null
  who: string
  what: string
  description: string
  category_id: number | null
  completeness: Generated<number>
  created_at: string
  updated_at: string
}
export type ClientSubcategoryTable = { user_id: number; subcategory_id: number }
export type PaymentMethodTable = {
  id: Generated<number>
  user_id: number
  kind: 'bank' | 'paypal' | 'stripe_account'
  holder_name: string
  iban: string | null
  bic: string | null
  bank_name: string | null
  email: string | null
  /** a Stripe connected account's id (acct_…), for kind stripe_account (decision 196) */
  stripe_account: string | null
  is_default: number
  status: 'active' | 'inactive'
  created_at: string
  updated_at: string
}

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

// Notifications (server/modules/notifications): a message key and its params, rendered per reader.
export type NotificationType = 'Project' | 'Proposal' | 'ProjectStatus' | 'Chat' | 'Complaint' | 'Payment'

export type NotificationTable = {
  id: Generated<number>
  user_id: number
  source: string
  message_key: string
  params: Generated<string>
  type: NotificationType
  project_id: number | null
  room_id: number | null
  sender_id: number | null
  is_read: Generated<number>
  created_at: string
}

// Chat (server/modules/chat, migration 0022).
export type ChatRoomTable = {
  id: Generated<number>
  project_id: number
  client_id: number
  freelancer_id: number
  last_message_id: number | null
  created_at: string
}
export type ChatMemberTable = {
  room_id: number
  user_id: number
  role: 'client' | 'freelancer'
  last_read_message_id: Generated<number>
  last_activity_at: string
  /** 0 none, 1 scheduled, 2 sent, for the current unread run (reset on read). */
  alert_state: Generated<number>
  email_state: Generated<number>
}
export type ChatMessageTable = {
  id: Generated<number>
  room_id: number
  sender_id: number | null
  client_message_id: string
  kind: 'text' | 'system'
  body: string
  event: string | null
  params: string | null
  created_at: string
}
export type ChatAttachmentTable = { message_id: number; position: number; file_id: number }
// Payments (issue 17): the ledger, payments at gateways, gateway events applied (migration 0023).
export type LedgerAccountTable = {
  id: Generated<number>
  kind: string
  owner: string
  user_id: number | null
  currency: string
  balance_minor: Generated<number>
  created_at: string
}
export type LedgerTransactionTable = {
  id: Generated<number>
  kind: string
  ref: string
  contract_id: number | null
  installment_id: number | null
  payment_id: number | null
  reverses_id: number | null
  memo: string | null
  created_at: string
}
export type LedgerEntryTable = {
  id: Generated<number>
  transaction_id: number
  account_id: number
  amount_minor: number
  currency: string
}
export type PaymentTable = {
  id: Generated<number>
  token: string
  client_id: number
  contract_id: number
  gateway: string
  gateway_ref: string | null
  status: string
  amount_minor: number
  fee_minor: number
  total_minor: number
  currency: string
  failure: string | null
  applied: Generated<number>
  created_at: string
  updated_at: string
}
export type PaymentInstallmentTable = {
  payment_id: number
  installment_id: number
  amount_minor: number
  fee_minor: number
  applied: Generated<number>
}
export type GatewayEventTable = {
  gateway: string
  event_id: string
  type: string
  payment_id: number | null
  received_at: string
}
// Refund requests (issue 17 item 5, migration 0024).
export type RefundRequestTable = {
  id: Generated<number>
  installment_id: number
  active_installment_id: number | null
  contract_id: number
  project_id: number
  payment_id: number
  client_id: number
  freelancer_id: number
  status: string
  amount_minor: number
  fee_minor: Generated<number>
  currency: string
  reason: string
  decline_reason: string | null
  respond_by: string
  gateway_status: string | null
  gateway_ref: string | null
  decided_by: number | null
  decision_note: string | null
  /** The complaint that opened this dispute (decision 230), null for a client's refund request. */
  complaint_id: number | null
  created_at: string
  updated_at: string
}

// Complaints and support tickets, the admin audit trail (server/modules/complaints, migration 0028).
export type ComplaintTable = {
  id: Generated<number>
  author_id: number | null
  email: string
  name: string
  language: Generated<string>
  source: 'app' | 'contact'
  contact_message_id: number | null
  subject_kind: string
  subject_id: number | null
  subject_label: string
  other_party_id: number | null
  title: string
  status: string
  assignee_id: number | null
  created_at: string
  updated_at: string
}
export type ComplaintMessageTable = {
  id: Generated<number>
  complaint_id: number
  author_id: number | null
  from_support: Generated<number>
  body: string
  created_at: string
}
export type ComplaintAttachmentTable = { message_id: number; file_id: number }
export type AdminAuditTable = {
  id: Generated<number>
  actor_id: number
  action: string
  object_type: string
  object_id: number | null
  from_state: string | null
  to_state: string | null
  reason: string | null
  at: string
}
// Invoices (issue 17 item 7): one per release and fee, numbered without gaps per year (migration 0026).
export type InvoiceCounterTable = { year: number; last_number: number }
export type InvoiceTable = {
  id: Generated<number>
  number: string
  year: number
  sequence: number
  kind: string
  issuer_user_id: number | null
  issuer_name: string
  recipient_user_id: number | null
  recipient_name: string
  contract_id: number
  installment_id: number
  transaction_id: number
  project_title: string
  installment_title: string
  amount_minor: number
  currency: string
  issued_at: string
}
// Payouts (issue 17 item 6, migration 0025).
export type PayoutTable = {
  id: Generated<number>
  user_id: number
  payment_method_id: number | null
  destination_kind: 'bank' | 'paypal' | 'stripe_account'
  destination_masked: string
  gateway: string
  gateway_ref: string | null
  status: 'requested' | 'paid' | 'failed'
  amount_minor: number
  currency: string
  failure: string | null
  created_at: string
  updated_at: string
}
