import { beforeAll } from 'vitest'
import { sql } from 'kysely'
import type { Db } from '#server/db/database.ts'
import type { Database } from '#server/db/schema.ts'
import { moduleTestApi, useModuleApi } from '../../integration/module-api.ts'
import type { TestDialect } from '../../integration/databases.ts'
import { testCards } from '#server/modules/payments/gateways/sandbox.ts'
import type { Gateway } from '#server/modules/payments/gateways/gateway.ts'
import { Role } from '#server/modules/identity/permissions.ts'

// Test helpers for payments: users, a contract ready to be paid (a project, a proposal accepted),
// and funding through the sandbox checkout as a client's browser does it.
type T = ReturnType<typeof moduleTestApi>
type U = { id: number; token: string }
type Call = T['call']

const options = { name: 'payments', addressBlock: 17, freelancerTitle: 'Structural engineer' }
export const paymentsTestApi = (database: Db, env?: Record<string, string>) =>
  moduleTestApi(database, { ...options, env })

/** A describe block's database, API (outbox started, with these settings) and users: a client, another client, a freelancer, and a SuperAdmin who decides disputes. */
export function usePayments(dialect: TestDialect, env?: () => Record<string, string>) {
  type User = Awaited<ReturnType<T['user']>>
  const s = useModuleApi(dialect, () => ({ ...options, env: env?.() })) as ReturnType<typeof useModuleApi> & {
    client: User
    other: User
    freelancer: User
    admin: User
  }
  beforeAll(async () => {
    s.t.api.jobs.outbox.start()
    s.client = await s.t.user('client', 'Clara', 'Client')
    s.other = await s.t.user('client', 'Oscar', 'Other')
    s.freelancer = await s.t.user('freelancer', 'Fran', 'Engineer')
    s.admin = await s.t.user('client', 'Sam', 'Support')
    await s.database.db
      .updateTable('user_role')
      .set({ role: Role.SuperAdmin })
      .where('user_id', '=', s.admin.id)
      .execute()
  }, 60_000)
  return s
}

export const card = (cardNumber: string = testCards.succeeds) => ({
  cardNumber,
  expiry: '12/40',
  cvc: '123',
  name: 'Clara Client',
})

/** A person's balance in their first currency (nothing held or available when they have none). */
export const balanceOf = async (call: Call, u: U) =>
  (await call('GET', 'Payment/balances', { token: u.token })).json.data[0] ?? {
    heldMinor: 0,
    availableMinor: 0,
  }

/** A client's open project with these installments, a freelancer's proposal for it, accepted: the contract. */
export async function contractFor(
  call: Call,
  database: Db,
  client: U,
  freelancer: U,
  amounts: number[] = [100000, 50000],
) {
  const sub = await database.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const total = amounts.reduce((s, a) => s + a, 0)
  const installments = amounts.map((amountMinor, n) => ({ title: `Stage ${n + 1}`, amountMinor }))
  const project = await call('POST', 'projects', {
    token: client.token,
    body: {
      title: 'Steel frame checks for a warehouse',
      description:
        'Check the steel frame of a small warehouse extension and its connections to the existing structure.',
      subcategoryId: sub.id,
      skillIds: [],
      budgetType: 'fixed',
      budgetMinor: total,
      currency: 'EUR',
      durationDays: 20,
      experienceLevel: 'intermediate',
      remote: true,
      installments,
      publish: true,
    },
  })
  if (project.status !== 200) throw new Error(project.text)
  const proposal = await call('POST', `projects/${project.json.id}/proposal`, {
    token: freelancer.token,
    body: {
      coverLetter: 'I check steel frames every week and can deliver the calculations within the agreed time.',
      bidMinor: total,
      durationDays: 20,
      installments,
    },
  })
  if (proposal.status !== 200) throw new Error(proposal.text)
  const contract = await call('POST', `projects/proposals/${proposal.json.id}/accept/${project.json.id}`, {
    token: client.token,
  })
  if (contract.status !== 200) throw new Error(contract.text)
  return {
    projectId: project.json.id as number,
    contractId: contract.json.id as number,
    installments: contract.json.installments as Array<{ id: number; amountMinor: number; status: string }>,
  }
}

/** Pays installments at the sandbox checkout with a card, as the client's browser would. */
export async function fund(
  call: Call,
  client: U,
  projectId: number,
  installmentIds: number[],
  cardNumber: string = testCards.succeeds,
) {
  const paid = await call('POST', 'Payment/PayProjectInstallments', {
    token: client.token,
    body: { projectId, installmentIds },
  })
  if (paid.status !== 200) throw new Error(paid.text)
  const charged = await call('POST', `Payment/sandbox/${paid.json.token}/pay`, { body: card(cardNumber) })
  return { payment: paid.json, session: charged.json, status: charged.status }
}

/** The ledger's own rules, read straight from its rows. */
export async function ledgerBroken(database: Db) {
  const db = database.db
  const unbalanced = await db
    .selectFrom('ledger_entry')
    .select(['transaction_id', 'currency'])
    .groupBy(['transaction_id', 'currency'])
    .having((eb) => eb.fn.sum('amount_minor'), '<>', 0)
    .execute()
  const currencies = await db
    .selectFrom('ledger_entry')
    .select(['currency'])
    .groupBy('currency')
    .having((eb) => eb.fn.sum('amount_minor'), '<>', 0)
    .execute()
  const negative = await db
    .selectFrom('ledger_entry as e')
    .innerJoin('ledger_account as a', 'a.id', 'e.account_id')
    .select('a.id')
    .where('a.kind', 'in', ['client_held', 'freelancer_available', 'platform_fees', 'payout_in_flight'])
    .groupBy('a.id')
    .having((eb) => eb.fn.sum('e.amount_minor'), '>', 0)
    .execute()
  const drifted = await sql<{
    id: number
  }>`select a.id from ledger_account a where a.balance_minor <> coalesce((select sum(e.amount_minor) from ledger_entry e where e.account_id = a.id), 0)`.execute(
    db,
  )
  const lonely = await sql<{
    id: number
  }>`select t.id from ledger_transaction t where (select count(*) from ledger_entry e where e.transaction_id = t.id) < 2`.execute(
    db,
  )
  return [
    ...unbalanced.map((u) => `transaction ${u.transaction_id} unbalanced in ${u.currency}`),
    ...currencies.map((c) => `${c.currency} sums to non-zero`),
    ...negative.map((n) => `account ${n.id} below zero`),
    ...lonely.rows.map((l) => `transaction ${l.id} has fewer than two entries`),
    ...drifted.rows.map((d) => `account ${d.id} running sum differs from its entries`),
  ]
}

/** A gateway whose payout answer is lost: it pays (or refuses), then the process dies before our commit (decision 250). */
export const answerLost = (real: Gateway): Gateway => ({
  ...real,
  payout: async (r) => {
    await real.payout(r)
    throw new Error('process killed after the gateway answered')
  },
})

/** How many rows a table holds (a refused call must leave it as it was). */
export const rowCount = async (database: Db, table: keyof Database) =>
  Number(
    (
      await database.db
        .selectFrom(table as 'outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** The freelancer submits a funded installment and the client approves it: its money is released. */
export async function submitAndApprove(call: Call, client: U, freelancer: U, installmentId: number) {
  await call('POST', `projects/installments/${installmentId}/submit`, {
    token: freelancer.token,
    body: { note: 'Done' },
  })
  return call('POST', `projects/installments/${installmentId}/approve`, { token: client.token, body: {} })
}

/** A contract's installments as stored, in order. */
export const installmentRows = (database: Db, contractId: number) =>
  database.db
    .selectFrom('installment')
    .selectAll()
    .where('contract_id', '=', contractId)
    .orderBy('position')
    .execute()
