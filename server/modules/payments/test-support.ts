import { afterAll, beforeAll } from 'vitest'
import type { Db } from '../../db/database.ts'
import { moduleTestApi } from '../../../tests/integration/module-api.ts'
import { createTestDatabase, type TestDatabase, type TestDialect } from '../../../tests/integration/databases.ts'
import { testCards } from './gateways/sandbox.ts'

// Test helpers for payments: users, a contract ready to be paid (a project, a proposal accepted),
// and funding through the sandbox checkout as a client's browser does it.
type T = ReturnType<typeof moduleTestApi>
type U = { id: number; token: string }
type Call = T['call']

export const paymentsTestApi = (database: Db, env?: Record<string, string>) => moduleTestApi(database, { name: 'payments', addressBlock: 17, freelancerTitle: 'Structural engineer', env })

/** A describe block's database, API (outbox started, with these settings) and users: a client, another client, a freelancer. */
export function usePayments(dialect: TestDialect, env?: () => Record<string, string>) {
  type User = Awaited<ReturnType<T['user']>>
  const s = {} as { testDb: TestDatabase; database: Db; t: T; client: User; other: User; freelancer: User }
  beforeAll(async () => {
    s.testDb = await createTestDatabase(dialect)
    s.database = await s.testDb.open()
    s.t = paymentsTestApi(s.database, env?.())
    s.t.api.jobs.outbox.start()
    s.client = await s.t.user('client', 'Clara', 'Client')
    s.other = await s.t.user('client', 'Oscar', 'Other')
    s.freelancer = await s.t.user('freelancer', 'Fran', 'Engineer')
  }, 60_000)
  afterAll(async () => {
    await s.t?.close()
    await s.database?.close()
    await s.testDb?.drop()
  })
  return s
}

export const card = (cardNumber: string = testCards.succeeds) => ({ cardNumber, expiry: '12/40', cvc: '123', name: 'Clara Client' })

/** A client's open project with these installments, a freelancer's proposal for it, accepted: the contract. */
export async function contractFor(call: Call, database: Db, client: U, freelancer: U, amounts: number[] = [100000, 50000]) {
  const sub = await database.db.selectFrom('subcategory').select('id').where('slug', '=', 'structural-engineering').executeTakeFirstOrThrow()
  const total = amounts.reduce((s, a) => s + a, 0)
  const installments = amounts.map((amountMinor, n) => ({ title: `Stage ${n + 1}`, amountMinor }))
  const project = await call('POST', 'projects', {
    token: client.token,
    body: { title: 'Steel frame checks for a warehouse', description: 'Check the steel frame of a small warehouse extension and its connections to the existing structure.', subcategoryId: sub.id, skillIds: [], budgetType: 'fixed', budgetMinor: total, currency: 'EUR', durationDays: 20, experienceLevel: 'intermediate', remote: true, installments, publish: true },
  })
  if (project.status !== 200) throw new Error(project.text)
  const proposal = await call('POST', `projects/${project.json.id}/proposal`, { token: freelancer.token, body: { coverLetter: 'I check steel frames every week and can deliver the calculations within the agreed time.', bidMinor: total, durationDays: 20, installments } })
  if (proposal.status !== 200) throw new Error(proposal.text)
  const contract = await call('POST', `projects/proposals/${proposal.json.id}/accept/${project.json.id}`, { token: client.token })
  if (contract.status !== 200) throw new Error(contract.text)
  return { projectId: project.json.id as number, contractId: contract.json.id as number, installments: contract.json.installments as Array<{ id: number; amountMinor: number; status: string }> }
}

/** Pays installments at the sandbox checkout with a card, as the client's browser would. */
export async function fund(call: Call, client: U, projectId: number, installmentIds: number[], cardNumber: string = testCards.succeeds) {
  const paid = await call('POST', 'Payment/PayProjectInstallments', { token: client.token, body: { projectId, installmentIds } })
  if (paid.status !== 200) throw new Error(paid.text)
  const charged = await call('POST', `Payment/sandbox/${paid.json.token}/pay`, { body: card(cardNumber) })
  return { payment: paid.json, session: charged.json, status: charged.status }
}
