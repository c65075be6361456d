import type { DB } from '#server/db/database.ts'

// What Workneer holds about one person, table by table, for their export (decision 331). Only rows
// they own or are a party to, and of those only what is theirs: their own messages (never the other
// side's), their own proposals, their contracts' terms, the money records of their own accounts.
// Other people appear as ids at most; their names, texts and private fields never. Credentials
// (password hash, session ids, second-factor secret, token hashes) are not data about the person
// and stay out. Like the erasure (admin-users/erase.ts), the export reads every area's tables: it is
// the one place that must see all of a person at once.

export type Row = Record<string, unknown>
export interface Section {
  name: string
  rows: Row[]
}

async function account(db: DB, id: number): Promise<Section[]> {
  const user = await db
    .selectFrom('app_user')
    .select([
      'id',
      'email',
      'email_verified',
      'first_name',
      'last_name',
      'company_name',
      'phone_number',
      'language',
      'account_type',
      'status',
      'image_file_id',
      'provider',
      'terms_accepted_at',
      'closing_at',
      'created_at',
      'updated_at',
    ])
    .where('id', '=', id)
    .execute()
  const roles = await db.selectFrom('user_role').select('role').where('user_id', '=', id).execute()
  return [
    { name: 'account', rows: user },
    { name: 'roles', rows: roles },
    // The newsletter kind of their settings (decision 340) is the subscription of their address; its link's token stays out.
    {
      name: 'newsletter',
      rows: user.length
        ? await db
            .selectFrom('newsletter_subscriber')
            .select(['email', 'language', 'subscribed_at', 'unsubscribed_at'])
            .where('email', '=', user[0]!.email.toLowerCase())
            .execute()
        : [],
    },
    {
      name: 'sign-ins',
      rows: await db
        .selectFrom('user_session')
        .where('user_id', '=', id)
        .select(['provider', 'user_agent', 'ip', 'created_at', 'expires_at', 'revoked_at'])
        .orderBy('created_at')
        .execute(),
    },
    {
      name: 'linked-sign-ins',
      rows: await db
        .selectFrom('external_identity')
        .select(['provider', 'subject', 'email', 'created_at'])
        .where('user_id', '=', id)
        .execute(),
    },
    {
      name: 'points',
      rows: await db
        .selectFrom('wengaz_point_event')
        .select(['reason', 'points', 'created_at'])
        .where('user_id', '=', id)
        .execute(),
    },
  ]
}

async function profile(db: DB, id: number): Promise<Section[]> {
  const byUser = [
    ['freelancer-profile', 'freelancer_profile'],
    ['freelancer-languages', 'freelancer_language'],
    ['freelancer-skills', 'freelancer_skill'],
    ['freelancer-subcategories', 'freelancer_subcategory'],
    ['freelancer-education', 'freelancer_education'],
    ['freelancer-employment', 'freelancer_employment'],
    ['freelancer-certifications', 'freelancer_certification'],
    ['freelancer-portfolio', 'freelancer_portfolio'],
    ['client-profile', 'client_profile'],
    ['client-subcategories', 'client_subcategory'],
    ['payment-methods', 'payment_method'],
    ['invoice-details', 'invoice_details'],
    ['notification-preferences', 'notification_preference'],
    ['payouts', 'payout'],
  ] as const
  return Promise.all(
    byUser.map(async ([name, table]) => ({
      name,
      rows: await db
        .selectFrom(table as 'freelancer_profile')
        .selectAll()
        .where('user_id', '=', id)
        .execute(),
    })),
  )
}

/** The browsers they turned push on in: the push service's host and the device's label, never the keys or the full endpoint (a capability). */
async function pushDevices(db: DB, id: number): Promise<Section> {
  const rows = await db
    .selectFrom('push_subscription')
    .select(['endpoint', 'label', 'created_at'])
    .where('user_id', '=', id)
    .orderBy('id')
    .execute()
  const host = (endpoint: string) => {
    try {
      return new URL(endpoint).host
    } catch {
      return ''
    }
  }
  return {
    name: 'push-devices',
    rows: rows.map((r) => ({ service: host(r.endpoint), label: r.label, created_at: r.created_at })),
  }
}

async function work(db: DB, id: number): Promise<Section[]> {
  const projects = await db.selectFrom('project').selectAll().where('client_id', '=', id).execute()
  const proposals = await db.selectFrom('proposal').selectAll().where('freelancer_id', '=', id).execute()
  const revisions = await db
    .selectFrom('proposal_revision')
    .innerJoin('proposal', 'proposal.id', 'proposal_revision.proposal_id')
    .selectAll('proposal_revision')
    .where('proposal.freelancer_id', '=', id)
    .execute()
  const contracts = await db
    .selectFrom('contract')
    .selectAll()
    .where((eb) => eb.or([eb('client_id', '=', id), eb('freelancer_id', '=', id)]))
    .execute()
  const contractIds = contracts.map((c) => c.id)
  const installments = contractIds.length
    ? await db.selectFrom('installment').selectAll().where('contract_id', 'in', contractIds).execute()
    : []
  return [
    { name: 'projects', rows: projects },
    {
      name: 'project-comments',
      rows: await db.selectFrom('project_comment').selectAll().where('user_id', '=', id).execute(),
    },
    { name: 'proposals', rows: proposals },
    { name: 'proposal-revisions', rows: revisions },
    { name: 'contracts', rows: contracts },
    { name: 'installments', rows: installments },
    {
      name: 'timesheet-entries',
      rows: await db
        .selectFrom('timesheet_entry')
        .innerJoin('timesheet_week', 'timesheet_week.id', 'timesheet_entry.week_id')
        .innerJoin('contract', 'contract.id', 'timesheet_week.contract_id')
        .selectAll('timesheet_entry')
        .select(['timesheet_week.contract_id', 'timesheet_week.status as week_status'])
        .where('contract.freelancer_id', '=', id)
        .execute(),
    },
    {
      name: 'change-orders',
      rows: await db.selectFrom('change_order').selectAll().where('proposer_id', '=', id).execute(),
    },
    {
      name: 'reviews-written',
      rows: await db.selectFrom('review').selectAll().where('author_id', '=', id).execute(),
    },
    {
      name: 'saved-searches',
      rows: await db
        .selectFrom('saved_search')
        .select(['id', 'kind', 'name', 'filters', 'frequency', 'active', 'created_at', 'updated_at'])
        .where('owner_id', '=', id)
        .execute(),
    },
  ]
}

async function messages(db: DB, id: number): Promise<Section[]> {
  const sent = await db
    .selectFrom('chat_message')
    .select(['id', 'room_id', 'body', 'created_at'])
    .where('sender_id', '=', id)
    .where('kind', '=', 'text')
    .orderBy('id')
    .execute()
  const attachments = await db
    .selectFrom('chat_attachment')
    .innerJoin('chat_message', 'chat_message.id', 'chat_attachment.message_id')
    .select(['chat_attachment.message_id', 'chat_attachment.file_id'])
    .where('chat_message.sender_id', '=', id)
    .execute()
  const complaints = await db
    .selectFrom('complaint')
    .select(['id', 'email', 'name', 'source', 'subject_kind', 'subject_id', 'title', 'status', 'created_at'])
    .where('author_id', '=', id)
    .execute()
  // Their own messages in their complaints and support's answers to them; the other party's stay out.
  const complaintMessages = await db
    .selectFrom('complaint_message')
    .innerJoin('complaint', 'complaint.id', 'complaint_message.complaint_id')
    .select(['complaint_message.id', 'complaint_id', 'from_support', 'body', 'complaint_message.created_at'])
    .where('complaint.author_id', '=', id)
    .where((eb) =>
      eb.or([eb('complaint_message.author_id', '=', id), eb('complaint_message.from_support', '=', 1)]),
    )
    .orderBy('complaint_message.id')
    .execute()
  return [
    { name: 'messages-sent', rows: sent },
    { name: 'message-attachments', rows: attachments },
    { name: 'complaints', rows: complaints },
    { name: 'complaint-messages', rows: complaintMessages },
  ]
}

/** Invoices they issued or received: their own name and details as printed on it, the other party's left out. */
async function invoices(db: DB, id: number) {
  const rows = await db
    .selectFrom('invoice')
    .select(['number', 'kind', 'issued_at', 'contract_id', 'project_title', 'installment_title'])
    .select(['amount_minor', 'currency', 'tax_rate_bps', 'tax_minor', 'issuer_user_id', 'recipient_user_id'])
    .select(['issuer_name', 'issuer_details', 'recipient_name', 'recipient_details'])
    .where((eb) => eb.or([eb('issuer_user_id', '=', id), eb('recipient_user_id', '=', id)]))
    .orderBy('issued_at')
    .execute()
  return rows.map((r) => {
    const issuer = r.issuer_user_id === id
    const recipient = r.recipient_user_id === id
    return {
      ...r,
      issuer_name: issuer ? r.issuer_name : null,
      issuer_details: issuer ? r.issuer_details : null,
      recipient_name: recipient ? r.recipient_name : null,
      recipient_details: recipient ? r.recipient_details : null,
    }
  })
}

async function money(db: DB, id: number): Promise<Section[]> {
  const statement = await db
    .selectFrom('ledger_entry')
    .innerJoin('ledger_account', 'ledger_account.id', 'ledger_entry.account_id')
    .innerJoin('ledger_transaction', 'ledger_transaction.id', 'ledger_entry.transaction_id')
    .select([
      'ledger_transaction.created_at',
      'ledger_transaction.kind',
      'ledger_transaction.contract_id',
      'ledger_transaction.installment_id',
      'ledger_account.kind as account',
      'ledger_entry.amount_minor',
      'ledger_entry.currency',
    ])
    .where('ledger_account.user_id', '=', id)
    .orderBy('ledger_entry.id')
    .execute()
  const payments = await db
    .selectFrom('payment')
    .select([
      'id',
      'contract_id',
      'gateway',
      'status',
      'amount_minor',
      'fee_minor',
      'total_minor',
      'currency',
    ])
    .select(['created_at', 'updated_at'])
    .where('client_id', '=', id)
    .execute()
  return [
    { name: 'invoices', rows: await invoices(db, id) },
    { name: 'statement', rows: statement },
    { name: 'payments', rows: payments },
  ]
}

/** What others did about them, as facts without the others' words: notices, ratings received; and their deliverables' records. */
async function records(db: DB, id: number): Promise<Section[]> {
  const refunds = await db
    .selectFrom('refund_request')
    .select(['id', 'contract_id', 'installment_id', 'client_id', 'freelancer_id', 'status'])
    .select(['amount_minor', 'currency', 'reason', 'decline_reason', 'created_at', 'updated_at'])
    .where((eb) => eb.or([eb('client_id', '=', id), eb('freelancer_id', '=', id)]))
    .execute()
  return [
    {
      name: 'notifications',
      rows: await db
        .selectFrom('notification')
        .select(['id', 'type', 'message_key', 'project_id', 'is_read', 'created_at'])
        .where('user_id', '=', id)
        .orderBy('id')
        .execute(),
    },
    {
      name: 'reviews-received',
      rows: await db
        .selectFrom('review')
        .select(['contract_id', 'rating', 'created_at'])
        .where('subject_id', '=', id)
        .execute(),
    },
    {
      name: 'deliverable-issues',
      rows: await db
        .selectFrom('deliverable_issue')
        .select(['id', 'deliverable_id', 'contract_id', 'revision', 'status', 'note', 'issued_at'])
        .where('issued_by', '=', id)
        .execute(),
    },
    {
      name: 'deliverable-responses',
      rows: await db
        .selectFrom('deliverable_response')
        .select(['id', 'issue_id', 'contract_id', 'outcome', 'comment', 'responded_at'])
        .where('responded_by', '=', id)
        .execute(),
    },
    // The reason is the client's words, the refusal the freelancer's: each keeps only their own.
    {
      name: 'refund-requests',
      rows: refunds.map((r) => ({
        ...r,
        reason: r.client_id === id ? r.reason : null,
        decline_reason: r.freelancer_id === id ? r.decline_reason : null,
      })),
    },
  ]
}

/** Every section of one person's data, in a fixed order. */
export async function collectSections(db: DB, userId: number): Promise<Section[]> {
  return [
    ...(await account(db, userId)),
    ...(await profile(db, userId)),
    await pushDevices(db, userId),
    ...(await work(db, userId)),
    ...(await messages(db, userId)),
    ...(await money(db, userId)),
    ...(await records(db, userId)),
  ]
}

/** The files the person uploaded (their own rows of stored_file), for the archive's files/ folder. */
export const ownFiles = (db: DB, userId: number) =>
  db
    .selectFrom('stored_file')
    .select(['id', 'purpose', 'original_name', 'mime', 'size', 'storage_key', 'created_at'])
    .where('owner_id', '=', userId)
    .orderBy('id')
    .execute()
