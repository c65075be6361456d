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

// A change order removes an unreleased installment, or reduces it to zero, which is the same
// (decision 326): all that is held for it goes back to the client through the refunds' path, the
// installment stays in the plan at zero as `removed`, and the contract's value and history show
// it. An installment whose deliverables were issued, or one released, is not removed (409).

for (const dialect of portableDialects) {
  describe(`removing installments by change order on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, freelancer } = s)
    })

    const path = (projectId: number, rest = '') => `projects/${projectId}/change-orders${rest}`
    const propose = (projectId: number, who: U, effects: unknown[]) =>
      t.call('POST', path(projectId), {
        token: who.token,
        body: { description: 'Drop the site visits', reason: 'The client does them', effects },
      })
    const accept = (projectId: number, id: number, who: U) =>
      t.call('POST', path(projectId, `/${id}/accept`), { token: who.token })
    const states = async (contractId: number) =>
      (await installmentRows(database, contractId)).map((i) => [i.title, i.amount_minor, i.status])
    const value = async (contractId: number) =>
      (
        await database.db
          .selectFrom('contract')
          .select('amount_minor')
          .where('id', '=', contractId)
          .executeTakeFirstOrThrow()
      ).amount_minor

    test('a funded installment removed: all its held money goes back as a refund; the rest is released and the project completes', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [100000, 50000])
      const [first, second] = c.installments
      await fund(t.call, client, c.projectId, [first.id, second.id])
      const p = await propose(c.projectId, freelancer, [{ kind: 'remove', installmentId: second.id }])
      expect(p.status, p.text).toBe(200)
      expect(p.json.deltaMinor).toBe(-50000)
      const a = await accept(c.projectId, p.json.id, client)
      expect(a.status, a.text).toBe(200)
      expect(a.json).toMatchObject({ valueBeforeMinor: 150000, valueAfterMinor: 100000 })
      expect(a.json.effects[0]).toMatchObject({ kind: 'remove', oldAmountMinor: 50000, refundedMinor: 50000 })
      expect(await states(c.contractId)).toEqual([
        ['Stage 1', 100000, 'funded'],
        ['Stage 2', 0, 'removed'],
      ])
      expect(await value(c.contractId)).toBe(100000)
      const refund = await database.db
        .selectFrom('refund_request')
        .select(['status', 'amount_minor'])
        .where('installment_id', '=', second.id)
        .executeTakeFirstOrThrow()
      expect(refund).toEqual({ status: 'accepted', amount_minor: 50000 })
      expect(await ledgerBroken(database)).toEqual([])
      const list = await t.call('GET', path(c.projectId), { token: client.token })
      expect(list.json).toMatchObject({
        originalMinor: 150000,
        approvedChangesMinor: -50000,
        currentMinor: 100000,
      })
      const feed = await t.call('GET', `projects/${c.projectId}/activities`, { token: client.token })
      const actions = feed.json.data.map((x: { entity: string; action: string }) => `${x.entity}.${x.action}`)
      expect(actions).toEqual(expect.arrayContaining(['installment.refund', 'installment.remove']))

      // A removed installment is touched no more, and the contract completes without it.
      const again = await propose(c.projectId, client, [
        { kind: 'change', installmentId: second.id, title: 'Back' },
      ])
      expect([again.status, again.json.errors?.state]).toEqual([409, ['removed']])
      expect((await submitAndApprove(t.call, client, freelancer, first.id)).status).toBe(200)
      const done = await t.call('PUT', `projects/${c.projectId}/updatestate/completed`, {
        token: client.token,
      })
      expect(done.status, done.text).toBe(200)
      expect(await ledgerBroken(database)).toEqual([])
    })

    test('a pending installment reduced to zero is removed; the last one is not, nor one with issued deliverables', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [60000, 30000, 20000])
      const [first, second, third] = c.installments
      const zero = await propose(c.projectId, client, [
        { kind: 'reduce', installmentId: third.id, amountMinor: 20000 },
      ])
      expect(zero.status, zero.text).toBe(200)
      expect((await accept(c.projectId, zero.json.id, freelancer)).status).toBe(200)
      expect((await states(c.contractId))[2]).toEqual(['Stage 3', 0, 'removed'])
      expect(await value(c.contractId)).toBe(90000)

      // Removing every installment left would leave a contract worth nothing: 400, nothing written.
      const before = await rowCount(database, 'change_order')
      const all = await propose(c.projectId, client, [
        { kind: 'remove', installmentId: first.id },
        { kind: 'remove', installmentId: second.id },
      ])
      expect([all.status, Object.keys(all.json.errors)]).toEqual([400, ['effects']])
      expect(await rowCount(database, 'change_order')).toBe(before)

      // Issued deliverables keep their installment: 409 naming it and the deliverable.
      await fund(t.call, client, c.projectId, [first.id])
      const d = await t.call('POST', `projects/${c.projectId}/deliverables`, {
        token: freelancer.token,
        body: { number: 'S-101', title: 'GA', discipline: 'Structures', installmentId: first.id },
      })
      // Not issued yet: the removal may still be proposed (and is withdrawn here).
      const early = await propose(c.projectId, client, [{ kind: 'remove', installmentId: first.id }])
      expect(early.status, early.text).toBe(200)
      const withdrawn = await t.call('POST', path(c.projectId, `/${early.json.id}/withdraw`), {
        token: client.token,
      })
      expect(withdrawn.status).toBe(200)
      await t.call('POST', `projects/deliverables/${d.json.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P01', status: 'for_comment', note: 'First issue' },
      })
      const issued = await propose(c.projectId, client, [{ kind: 'remove', installmentId: first.id }])
      expect(issued.status).toBe(409)
      expect(issued.json.errors['effects.0.installmentId'][0]).toContain('S-101')
      expect(issued.json.errors.state).toEqual(['issued'])
      expect(await rowCount(database, 'change_order')).toBe(before + 1)

      const other = await propose(c.projectId, freelancer, [{ kind: 'remove', installmentId: second.id }])
      expect(other.status, other.text).toBe(200)
      expect((await accept(c.projectId, other.json.id, client)).status).toBe(200)
      expect(await states(c.contractId)).toEqual([
        ['Stage 1', 60000, 'submitted'],
        ['Stage 2', 0, 'removed'],
        ['Stage 3', 0, 'removed'],
      ])
      expect(await value(c.contractId)).toBe(60000)
      expect(await ledgerBroken(database)).toEqual([])
    })

    test('accepting a removal after a deliverable was issued meanwhile is a 409 that changes nothing', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [40000, 30000])
      const [first] = c.installments
      await fund(t.call, client, c.projectId, [first.id])
      const d = await t.call('POST', `projects/${c.projectId}/deliverables`, {
        token: freelancer.token,
        body: { number: 'C-1', title: 'Calcs', discipline: 'Structures', installmentId: first.id },
      })
      const p = await propose(c.projectId, client, [{ kind: 'remove', installmentId: first.id }])
      expect(p.status, p.text).toBe(200)
      await t.call('POST', `projects/deliverables/${d.json.id}/issues`, {
        token: freelancer.token,
        body: { revision: 'P01', status: 'for_comment', note: 'First issue' },
      })
      const entries = await rowCount(database, 'ledger_entry')
      const r = await accept(c.projectId, p.json.id, freelancer)
      expect(r.status).toBe(409)
      expect(r.json.errors.state).toEqual(['issued'])
      expect(await rowCount(database, 'ledger_entry')).toBe(entries)
      expect((await states(c.contractId))[0]).toEqual(['Stage 1', 40000, 'submitted'])
    })
  })
}
