import type { Generated } from 'kysely'

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
  /** When the person asked to close the account (migration 0047): erased 14 days later unless they sign in. */
  closing_at: Generated<string | null>
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

export interface IdentityTables {
  app_user: AppUserTable
  user_role: UserRoleTable
  user_session: UserSessionTable
  user_token: UserTokenTable
  user_second_factor: UserSecondFactorTable
  user_recovery_code: UserRecoveryCodeTable
  external_identity: ExternalIdentityTable
  oidc_flow: OidcFlowTable
  wengaz_point_event: WengazPointEventTable
}
