import { describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { contractFor, fund, usePayments } from '../../../tests/support/modules/payments.ts'
import { issueReleaseInvoices } from './invoices.ts'

// Invoices and statements on both databases (decisions 190–193): a release issues the freelancer's
// invoice to the client and the platform's two fee invoices, numbered without gaps per year even
// when releases race or one rolls back; only the parties read them; the statement shows every
// movement with the running balance and refuses bad dates naming the field.
for (const dialect of dialects) {
  describe(`invoices and statements on ${dialect}`, () => {
    const s = usePayments(dialect)
    type U = { id: number; token: string }

    /** A one-installment contract, funded and submitted: the client's approval releases it. */
    async function submitted(amountMinor: number) {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [amountMinor])
      const i = c.installments[0]
      await fund(s.t.call, s.client, c.projectId, [i.id])
      const sent = await s.t.call('POST', `projects/installments/${i.id}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Done.' },
      })
      expect(sent.status, sent.text).toBe(200)
      return { ...c, installmentId: i.id }
    }
    const approve = (installmentId: number) =>
      s.t.call('POST', `projects/installments/${installmentId}/approve`, { token: s.client.token, body: {} })
    const invoicesOf = async (u: U) =>
      (await s.t.call('GET', 'Payment/invoices', { token: u.token })).json.data as Array<
        Record<string, unknown> & { id: number; number: string; kind: string }
      >
    const allNumbers = async () =>
      await s.database.db
        .selectFrom('invoice')
        .select(['year', 'sequence', 'number'])
        .orderBy('sequence')
        .execute()

    test("a release issues the freelancer's invoice to the client and the platform's fee invoices, numbered in a row, readable by their parties only", async () => {
      const c = await submitted(120000)
      const year = new Date().getUTCFullYear()
      const before = await allNumbers()
      expect((await approve(c.installmentId)).status).toBe(200)
      const issued = (await allNumbers()).slice(before.length)
      expect(issued.map((n) => n.sequence)).toEqual([1, 2, 3].map((n) => before.length + n))
      expect(issued[0].number).toBe(`WN-${year}-${String(before.length + 1).padStart(6, '0')}`)

      const mine = await invoicesOf(s.freelancer)
      const service = mine.find((v) => v.kind === 'service')!
      expect(service).toMatchObject({
        role: 'issuer',
        issuerName: 'Fran Engineer',
        recipientName: 'Clara Client',
        amountMinor: 120000,
        currency: 'EUR',
        projectTitle: 'Steel frame checks for a warehouse',
        installmentTitle: 'Stage 1',
      })
      expect(mine.find((v) => v.kind === 'platform_fee')).toMatchObject({
        role: 'recipient',
        issuerName: 'Workneer',
        issuerIsPlatform: true,
        amountMinor: 12000,
      })
      expect(mine.some((v) => v.kind === 'client_fee')).toBe(false)
      const theirs = await invoicesOf(s.client)
      expect(theirs.find((v) => v.kind === 'client_fee')).toMatchObject({
        role: 'recipient',
        recipientName: 'Clara Client',
        amountMinor: 3600,
      })
      expect(theirs.find((v) => v.id === service.id)).toMatchObject({ role: 'recipient' })
      expect(theirs.some((v) => v.kind === 'platform_fee')).toBe(false)

      expect(
        (await s.t.call('GET', `Payment/invoices/${service.id}`, { token: s.client.token })).json.number,
      ).toBe(service.number)
      const stranger = await s.t.call('GET', `Payment/invoices/${service.id}`, { token: s.other.token })
      expect(stranger.status).toBe(404)
      expect(await invoicesOf(s.other)).toEqual([])
      expect((await s.t.call('GET', `Payment/invoices/${service.id}`)).status).toBe(401)
      const bad = await s.t.call('GET', 'Payment/invoices/abc', { token: s.client.token })
      expect(bad.status).toBe(400)
      expect(bad.json.errors.invoiceId).toBeDefined()
    })

    test('concurrent releases take every number once, and a release rolled back gives its numbers back', async () => {
      const contracts = await Promise.all([30000, 31000, 32000, 33000, 34000, 35000].map((a) => submitted(a)))
      const answers = await Promise.all(contracts.map((c) => approve(c.installmentId)))
      expect(answers.map((a) => a.status)).toEqual(contracts.map(() => 200))
      // Issuances with nothing else to serialise them (no shared ledger account): eight at once.
      const many = await contractFor(
        s.t.call,
        s.database,
        s.client,
        s.freelancer,
        [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
      )
      const tx = await s.database.db
        .selectFrom('ledger_transaction')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      await Promise.all(
        many.installments.map((i) =>
          s.database.db.transaction().execute((trx) =>
            issueReleaseInvoices(trx, {
              transactionId: tx.id,
              contractId: many.contractId,
              installmentId: i.id,
              clientId: s.client.id,
              freelancerId: s.freelancer.id,
              currency: 'EUR',
              amountMinor: 1000,
              clientFeeMinor: 30,
              platformFeeMinor: 100,
            }),
          ),
        ),
      )
      const c = await submitted(20000)
      // A release whose transaction fails after its invoices were numbered: nothing stays, not even the numbers.
      const rel = await s.database.db
        .selectFrom('ledger_transaction')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      await expect(
        s.database.db.transaction().execute(async (trx) => {
          await issueReleaseInvoices(trx, {
            transactionId: rel.id,
            contractId: c.contractId,
            installmentId: c.installmentId,
            clientId: s.client.id,
            freelancerId: s.freelancer.id,
            currency: 'EUR',
            amountMinor: 20000,
            clientFeeMinor: 600,
            platformFeeMinor: 2000,
          })
          throw new Error('the release failed after numbering')
        }),
      ).rejects.toThrow('numbering')
      expect((await approve(c.installmentId)).status).toBe(200)
      const numbers = await allNumbers()
      expect(numbers.map((n) => n.sequence)).toEqual(numbers.map((_, n) => n + 1))
      expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length)
      const counter = await s.database.db
        .selectFrom('invoice_counter')
        .select('last_number')
        .where('year', '=', new Date().getUTCFullYear())
        .executeTakeFirstOrThrow()
      expect(Number(counter.last_number)).toBe(numbers.length)
    })

    test("the statement lists every movement of the user's money with its running balance; pages and the export cursor agree", async () => {
      const statement = async (u: U, query = '') =>
        (await s.t.call('GET', `Payment/statements${query}`, { token: u.token })).json
      const all = await statement(s.client, '?pageSize=1000')
      let balance = 0
      for (const m of all.data) {
        balance += m.amountMinor
        expect(m.balanceMinor).toBe(balance)
      }
      expect(all.data.length).toBeGreaterThan(4)
      // Every capture is money in, every release money out: the client holds what is not yet released.
      expect(
        all.data
          .filter((m: { movement: string }) => m.movement === 'capture')
          .every((m: { amountMinor: number }) => m.amountMinor > 0),
      ).toBe(true)
      expect(
        all.data
          .filter((m: { movement: string }) => m.movement === 'release')
          .every((m: { amountMinor: number }) => m.amountMinor < 0),
      ).toBe(true)
      const held = (await s.t.call('GET', 'Payment/balances', { token: s.client.token })).json.data[0]
        .heldMinor
      expect(all.data.at(-1).balanceMinor).toBe(held)

      const second = await statement(s.client, '?pageSize=3&page=2')
      expect(second.data).toEqual(all.data.slice(3, 6))
      expect(second.total).toBe(all.data.length)
      const afterCursor = await statement(s.client, `?pageSize=3&after=${all.data[2].id}`)
      expect(afterCursor.data).toEqual(all.data.slice(3, 6))
      expect(afterCursor.next).toBe(all.data[5].id)

      const earned = await statement(s.freelancer)
      expect(earned.data[0]).toMatchObject({
        movement: 'release',
        account: 'freelancer_available',
        amountMinor: 108000,
        balanceMinor: 108000,
        installmentTitle: 'Stage 1',
      })
      expect((await statement(s.other)).data).toEqual([])
      const today = new Date().toISOString().slice(0, 10)
      expect((await statement(s.client, `?from=${today}&to=${today}&pageSize=1000`)).data).toEqual(all.data)
      expect((await statement(s.client, '?from=2001-01-01&to=2001-12-31')).data).toEqual([])
    })

    test('bad statement dates are refused naming the field', async () => {
      const ask = (query: string) => s.t.call('GET', `Payment/statements${query}`, { token: s.client.token })
      const reversed = await ask('?from=2026-03-02&to=2026-03-01')
      expect(reversed.status).toBe(400)
      expect(Object.keys(reversed.json.errors)).toEqual(['to'])
      expect(Object.keys((await ask('?from=02/03/2026')).json.errors)).toEqual(['from'])
      expect(Object.keys((await ask('?to=2026-02-30')).json.errors)).toEqual(['to'])
      expect(Object.keys((await ask('?page=0')).json.errors)).toEqual(['page'])
      expect((await ask('?from=&to=')).status).toBe(200)
      expect((await s.t.call('GET', 'Payment/statements')).status).toBe(401)
    })
  })
}
