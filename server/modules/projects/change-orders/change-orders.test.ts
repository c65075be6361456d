import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { portableDialects } from '../../../../tests/integration/databases.ts'
import {
  contractFor,
  fund,
  installmentRows,
  ledgerBroken,
  paymentsTestApi,
  rowCount,
  submitAndApprove,
  usePayments,
} from '../../../../tests/support/modules/payments.ts'
import { feeOf } from '../../payments/fees.ts'

// Change orders through the real API on both databases (issue 40 item 2, decision 319): who may
// propose and decide, a decision taken once, refusals that name the field or the state and change
// nothing, and an accepted change that amends the contract and gives held money back to the client.

for (const dialect of portableDialects) {
  describe(`change orders on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U, other: U
    beforeAll(() => {
      ;({ database, t, client, freelancer, other } = s)
    })

    const path = (projectId: number, rest = '') => `projects/${projectId}/change-orders${rest}`
    const propose = (projectId: number, who: U, effects: unknown[], description = 'More drawings') =>
      t.call('POST', path(projectId), {
        token: who.token,
        body: { description, reason: 'The client asked for a second storey', effects },
      })
    const decide = (projectId: number, id: number, who: U, action: string, body?: unknown) =>
      t.call('POST', path(projectId, `/${id}/${action}`), { token: who.token, body })
    const contractRow = (id: number) =>
      database.db.selectFrom('contract').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    const installments = (contractId: number) => installmentRows(database, contractId)
    const count = (table: Parameters<typeof rowCount>[1]) => rowCount(database, table)
    const release = (id: number) => submitAndApprove(t.call, client, freelancer, id)

    test('the freelancer proposes an installment, the client accepts it once, and the contract shows the value', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [100000, 50000])
      const proposed = await propose(c.projectId, freelancer, [
        { kind: 'add', title: 'Second storey', amountMinor: 40000, dueDate: '2099-01-31' },
      ])
      expect(proposed.status, proposed.text).toBe(200)
      expect(proposed.json).toMatchObject({
        number: 1,
        status: 'proposed',
        deltaMinor: 40000,
        canWithdraw: true,
      })
      // A pending change order holds nothing back: the client funds an installment meanwhile.
      expect((await fund(t.call, client, c.projectId, [c.installments[0].id])).status).toBe(200)
      const id = proposed.json.id as number
      expect((await decide(c.projectId, id, freelancer, 'accept')).status).toBe(403)
      const accepted = await decide(c.projectId, id, client, 'accept')
      expect(accepted.status, accepted.text).toBe(200)
      expect(accepted.json).toMatchObject({
        status: 'accepted',
        valueBeforeMinor: 150000,
        valueAfterMinor: 190000,
      })
      expect((await contractRow(c.contractId)).amount_minor).toBe(190000)
      const rows = await installments(c.contractId)
      expect(rows.map((i) => [i.position, i.title, i.amount_minor, i.status])).toEqual([
        [1, 'Stage 1', 100000, 'funded'],
        [2, 'Stage 2', 50000, 'pending'],
        [3, 'Second storey', 40000, 'pending'],
      ])
      const again = await decide(c.projectId, id, client, 'accept')
      expect(again.status).toBe(409)
      expect(again.json.errors.state).toEqual(['accepted'])
      expect((await decide(c.projectId, id, client, 'reject', { reason: 'Too late' })).status).toBe(409)
      const list = await t.call('GET', path(c.projectId), { token: client.token })
      expect(list.json).toMatchObject({
        originalMinor: 150000,
        approvedChangesMinor: 40000,
        currentMinor: 190000,
      })
      const feed = await t.call('GET', `projects/${c.projectId}/activities`, { token: client.token })
      const actions = feed.json.data.map((a: { entity: string; action: string }) => `${a.entity}.${a.action}`)
      expect(actions).toEqual(
        expect.arrayContaining(['change_order.propose', 'change_order.accept', 'installment.create']),
      )
    })

    test('the other party rejects with a reason, the proposer withdraws, and only the two parties see them', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [80000])
      const none = await t.call('GET', path(c.projectId), { token: client.token })
      expect([none.status, none.json.data, none.json.currentMinor]).toEqual([200, [], 80000])
      const first = await propose(c.projectId, client, [{ kind: 'deadline', dueDate: '2099-06-30' }])
      expect(first.status, first.text).toBe(200)
      const id = first.json.id as number
      for (const [who, status] of [
        [other, 404],
        [freelancer, 200],
      ] as const)
        expect((await t.call('GET', path(c.projectId), { token: who.token })).status).toBe(status)
      expect((await decide(c.projectId, id, other, 'accept')).status).toBe(404)
      const blank = await decide(c.projectId, id, freelancer, 'reject', { reason: ' ' })
      expect(blank.status).toBe(400)
      expect(Object.keys(blank.json.errors)).toEqual(['reason'])
      const rejected = await decide(c.projectId, id, freelancer, 'reject', {
        reason: 'The site opens in May',
      })
      expect(rejected.json).toMatchObject({ status: 'rejected', rejectionReason: 'The site opens in May' })
      const second = await propose(c.projectId, client, [{ kind: 'deadline', dueDate: '2099-07-31' }])
      expect((await decide(c.projectId, second.json.id, freelancer, 'withdraw')).status).toBe(403)
      expect((await decide(c.projectId, second.json.id, client, 'withdraw')).json.status).toBe('withdrawn')
      expect((await decide(c.projectId, second.json.id, freelancer, 'accept')).status).toBe(409)
      expect((await t.call('GET', path(c.projectId), { token: client.token })).json.currentMinor).toBe(80000)
      expect((await propose(c.projectId, other, [{ kind: 'deadline', dueDate: '2099-07-31' }])).status).toBe(
        404,
      )
    })

    test('bad changes are refused naming the field or the state, and nothing changes', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [60000, 30000])
      const [first, second] = c.installments
      await fund(t.call, client, c.projectId, [first.id])
      await release(first.id)
      const before = await Promise.all([count('change_order'), count('installment')])
      const cases: Array<[unknown[], number, string]> = [
        [[{ kind: 'change', installmentId: first.id, title: 'Renamed' }], 409, 'effects.0.installmentId'],
        // Reduced to zero is removed (removal.test.ts); below zero is refused.
        [[{ kind: 'reduce', installmentId: second.id, amountMinor: 30001 }], 400, 'effects.0.amountMinor'],
        [[{ kind: 'remove', installmentId: first.id }], 409, 'effects.0.installmentId'],
        [[{ kind: 'reduce', installmentId: second.id, amountMinor: -5 }], 400, 'effects.0.amountMinor'],
        [[{ kind: 'change', installmentId: second.id }], 400, 'effects.0'],
        [[{ kind: 'change', installmentId: 999999, title: 'X' }], 400, 'effects.0.installmentId'],
        [[{ kind: 'deadline', dueDate: '2001-01-01' }], 400, 'effects.0.dueDate'],
        [[], 400, 'effects'],
      ]
      for (const [effects, status, field] of cases) {
        const r = await propose(c.projectId, freelancer, effects)
        expect([r.status, Object.keys(r.json.errors ?? {})], JSON.stringify(effects)).toEqual([
          status,
          status === 409 ? [field, 'state'] : [field],
        ])
      }
      expect(await Promise.all([count('change_order'), count('installment')])).toEqual(before)
    })

    test('an installment released between proposal and acceptance makes the acceptance a 409 that changes nothing', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [70000])
      const i = c.installments[0]
      await fund(t.call, client, c.projectId, [i.id])
      const p = await propose(c.projectId, freelancer, [
        { kind: 'reduce', installmentId: i.id, amountMinor: 10000 },
      ])
      expect(p.status, p.text).toBe(200)
      await release(i.id)
      const entries = await count('ledger_entry')
      const r = await decide(c.projectId, p.json.id, client, 'accept')
      expect(r.status).toBe(409)
      expect(r.json.errors.state).toEqual(['released'])
      expect(await count('ledger_entry')).toBe(entries)
      expect((await contractRow(c.contractId)).amount_minor).toBe(70000)
      expect((await t.call('GET', path(c.projectId), { token: client.token })).json.data[0].status).toBe(
        'proposed',
      )
    })

    test('reducing a funded installment gives the held difference back through a refund, and the release pays the rest', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [100000])
      const i = c.installments[0]
      await fund(t.call, client, c.projectId, [i.id])
      const more = await propose(c.projectId, freelancer, [
        { kind: 'change', installmentId: i.id, amountMinor: 120000 },
      ])
      expect([more.status, more.json.errors?.state]).toEqual([409, ['funded']])
      const p = await propose(c.projectId, client, [
        { kind: 'reduce', installmentId: i.id, amountMinor: 30000 },
      ])
      const before =
        (await t.call('GET', 'Payment/balances', { token: freelancer.token })).json.data[0]?.availableMinor ??
        0
      const r = await decide(c.projectId, p.json.id, freelancer, 'accept')
      expect(r.status, r.text).toBe(200)
      expect(r.json.effects[0]).toMatchObject({ oldAmountMinor: 100000, refundedMinor: 30000 })
      const refund = await database.db
        .selectFrom('refund_request')
        .selectAll()
        .where('installment_id', '=', i.id)
        .executeTakeFirstOrThrow()
      expect([refund.status, refund.amount_minor]).toEqual(['accepted', 30000])
      expect(await ledgerBroken(database)).toEqual([])
      const approved = await release(i.id)
      expect(approved.status, approved.text).toBe(200)
      const after = (await t.call('GET', 'Payment/balances', { token: freelancer.token })).json.data[0]
        .availableMinor
      expect(after - before).toBe(70000 - feeOf(70000, 1000))
      expect(await ledgerBroken(database)).toEqual([])
    })
  })
}
