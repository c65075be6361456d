import type { Generated } from 'kysely'

// Table shapes as Kysely sees them. Flags are 0/1 integers and timestamps ISO-8601 UTC strings on
// both databases, so services never branch on the dialect.
export const locales = ['en', 'es', 'de', 'it', 'ru'] as const
export type Locale = (typeof locales)[number]

type Localized<P extends string> = { [L in Locale as `${P}_${L}`]: string }

export type CategoryTable = { id: Generated<number>; slug: string; image_url: string; sort_order: number } & Localized<'name'> & Localized<'description'>
export type SubcategoryTable = { id: Generated<number>; category_id: number; slug: string; sort_order: number } & Localized<'name'>
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
export type ExternalIdentityTable = { id: Generated<number>; user_id: number; provider: string; subject: string; email: string | null; created_at: string }
export type OidcFlowTable = { id: string; provider: string; code_verifier: string; nonce: string; redirect_uri: string; claims: string | null; created_at: string; expires_at: string }
export type WengazPointEventTable = { id: Generated<number>; user_id: number; reason: string; ref: Generated<string>; points: number; created_at: string }
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
  newsletter_subscriber: NewsletterSubscriberTable
  contact_message: ContactMessageTable
}

// Content of the public site (issue 4). Texts are per language; flags 0/1; timestamps ISO strings.
export type FaqEntryTable = { id: Generated<number>; slug: string; audience: string; sort_order: number } & Localized<'question'> & Localized<'answer'>
export type BlogPostTable = {
  id: Generated<number>
  slug: string
  author: string
  tags: string
  image_url: string | null
  published: number
  published_at: string
  created_at: string
} & Localized<'title'> & Localized<'summary'> & Localized<'body'>
export type HomeBoxTable = { id: Generated<number>; slug: string; icon: string; sort_order: number } & Localized<'title'> & Localized<'body'>
export type ServiceHighlightTable = { id: Generated<number>; slug: string; area_slug: string; sort_order: number } & Localized<'title'> & Localized<'body'>
export type PartnerLogoTable = { id: Generated<number>; name: string; image_url: string; sort_order: number }
export type ContentPageTable = { slug: string; updated_at: string } & Localized<'title'> & Localized<'body'>
export type NewsletterSubscriberTable = { id: Generated<number>; email: string; token: string; language: string; subscribed_at: string; unsubscribed_at: string | null }
export type ContactMessageTable = { id: Generated<number>; name: string; email: string; subject: string; message: string; language: string; user_id: number | null; ip: string | null; created_at: string }
