import type { Generated } from 'kysely'

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
  /** a connected account's id at its gateway (Stripe: acct_…), for kind stripe_account (decisions 196, 333) */
  stripe_account: string | null
  /** the gateway that opened the connected account ('stripe' or 'sandbox'); null for other kinds */
  account_gateway: string | null
  /** the connected account's status, as its gateway's account events report it (decision 333) */
  details_submitted: Generated<number>
  payouts_enabled: Generated<number>
  is_default: number
  status: 'active' | 'inactive'
  created_at: string
  updated_at: string
}

export interface ProfilesTables {
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
}
