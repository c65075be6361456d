import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { indexFreelancer } from '../profiles/listing.ts'
import { releaseFiles } from '../files/lifecycle.ts'
import { eraseVerification } from '../verification/verified.ts'
import { forgetSavedCards } from '../payments/gateway-customers.ts'

type Trx = Kysely<Database> | Transaction<Database>

/** An address that can never receive mail (the reserved .invalid domain) and stays unique. */
export const deletedEmail = (userId: number) => `deleted-${userId}@deleted.invalid`

/**
 * Erases an account's personal data in the caller's transaction (decision 236). The list of what
 * is personal lives here, in one place, though it spans the tables of identity, profiles and
 * payment details: an erasure must be all or nothing, and a reader checks it in one file.
 * Money records (ledger, payments, invoices, payouts) and what the account said to others
 * (messages, proposals, reviews, complaints) are kept. The names go blank: wherever the account is
 * shown, displayName says "Deleted user" in the reader's language (decision 271).
 */
export async function erasePersonalData(trx: Trx, dialect: Dialect, userId: number) {
  const user = await trx
    .selectFrom('app_user')
    .select(['email', 'image_file_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow()
  const portfolio = await trx
    .selectFrom('freelancer_portfolio')
    .select(['image_file_id', 'document_file_id'])
    .where('user_id', '=', userId)
    .execute()
  const profile = await trx
    .selectFrom('freelancer_profile')
    .select('rate_sheet_file_id')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  const now = new Date().toISOString()

  await eraseAccount(trx, userId, now)
  await eraseProfiles(trx, userId, now)
  await erasePaymentDetails(trx, userId, now)
  await eraseFormEntries(trx, userId, user.email)
  // An identity document and its request (decision 332).
  await eraseVerification(trx, userId)
  // Saved cards, here and at the gateway (decision 348).
  await forgetSavedCards(trx, userId)
  // The search document carried the name and the profile's words.
  await indexFreelancer(trx as Kysely<Database>, dialect, userId)
  // Images and documents only this account's pages showed; their bytes go after commit.
  await releaseFiles(trx, [
    user.image_file_id,
    profile?.rate_sheet_file_id,
    ...portfolio.flatMap((p) => [p.image_file_id, p.document_file_id]),
  ])
}

/** The account row's personal columns, and every way in: sessions, one-time tokens, third-party sign-ins. */
async function eraseAccount(trx: Trx, userId: number, now: string) {
  await trx
    .updateTable('app_user')
    .set({
      email: deletedEmail(userId),
      email_verified: 0,
      password_hash: null,
      first_name: '',
      last_name: '',
      company_name: null,
      phone_number: null,
      image_file_id: null,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute()
  // (Remembered devices are signed tokens, not rows; they name an account that no longer signs in.)
  await trx.deleteFrom('user_session').where('user_id', '=', userId).execute()
  await trx.deleteFrom('user_token').where('user_id', '=', userId).execute()
  await trx.deleteFrom('external_identity').where('user_id', '=', userId).execute()
}

/** Profile texts and everything the profile pages show. */
async function eraseProfiles(trx: Trx, userId: number, now: string) {
  await trx
    .updateTable('freelancer_profile')
    .set({
      title: '',
      overview: '',
      description: '',
      city: null,
      country: null,
      gender: null,
      availability: null,
      rate_sheet_file_id: null,
      listed: 0,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute()
  for (const table of [
    'freelancer_education',
    'freelancer_employment',
    'freelancer_certification',
    'freelancer_portfolio',
    'freelancer_language',
  ] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute()
  }
  await trx
    .updateTable('client_profile')
    .set({
      who: '',
      what: '',
      description: '',
      website: null,
      city: null,
      country: null,
      founded_year: null,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute()
}

/** Payment details: the rows stay (payouts point at them) without a holder or an account. */
async function erasePaymentDetails(trx: Trx, userId: number, now: string) {
  await trx
    .updateTable('payment_method')
    .set({
      holder_name: '',
      iban: null,
      bic: null,
      bank_name: null,
      email: null,
      stripe_account: null,
      status: 'inactive',
      is_default: 0,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .execute()
  // The address and tax id entered for invoices; the invoices already issued keep their copy.
  await trx.deleteFrom('invoice_details').where('user_id', '=', userId).execute()
}

/** What the account left through the public forms under its address. */
async function eraseFormEntries(trx: Trx, userId: number, email: string) {
  await trx
    .updateTable('contact_message')
    .set({ name: '', email: deletedEmail(userId), ip: null })
    .where('user_id', '=', userId)
    .execute()
  await trx
    .updateTable('complaint')
    .set({ name: '', email: deletedEmail(userId) })
    .where('author_id', '=', userId)
    .execute()
  await trx.deleteFrom('newsletter_subscriber').where('email', '=', email).execute()
  await trx.deleteFrom('newsletter_confirmation').where('email', '=', email).execute()
}
