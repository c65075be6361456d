import { beforeAll, describe, expect, test } from 'vitest'
import type { Db } from '#server/db/database.ts'
import { portableDialects } from '../../../tests/integration/databases.ts'
import {
  card,
  contractFor,
  fund,
  paymentsTestApi,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { sandboxEvent, SIGNATURE_HEADER, testCards } from './gateways/sandbox.ts'

// The payments API on both databases: the sandbox checkout's three cards, the signed callback,
// release on approval with the platform fee, the details and balances read from the ledger, and
// every refusal changing nothing (default fees: client 3 %, platform 10 %).
for (const dialect of portableDialects) {
  describe(`payments on ${dialect}`, () => {
    const s = usePayments(dialect)
    let database: Db
    let t: ReturnType<typeof paymentsTestApi>
    type U = Awaited<ReturnType<typeof t.user>>
    let client: U, other: U, freelancer: U
    beforeAll(() => {
      ;({ database, t, client, other, freelancer } = s)
    })

    const ledgerRows = async () =>
      Number(
        (
          await database.db
            .selectFrom('ledger_entry')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const balances = async (u: U) => (await t.call('GET', 'Payment/balances', { token: u.token })).json.data
    const statusOf = async (id: number) =>
      (
        await database.db
          .selectFrom('installment')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status

    test('the client sees amount, fee and total, pays at the sandbox checkout, and the installment is funded only when the gateway confirms', async () => {
      const c = await contractFor(t.call, database, client, freelancer)
      const [i1, i2] = c.installments
      const quote = await t.call(
        'GET',
        `Payment/PayProjectInstallments?projectId=${c.projectId}&installmentIds=${i1.id}&installmentIds=${i2.id}`,
        { token: client.token },
      )
      expect(quote.json).toMatchObject({
        amountMinor: 150000,
        feeMinor: 4500,
        totalMinor: 154500,
        currency: 'EUR',
        feePercent: 3,
      })
      expect(quote.json.lines.map((l: { feeMinor: number }) => l.feeMinor)).toEqual([3000, 1500])

      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [i1.id], totalMinor: 103000 },
      })
      expect(paid.status, paid.text).toBe(200)
      expect(paid.json).toMatchObject({
        totalMinor: 103000,
        status: 'open',
        checkoutUrl: `/checkout/${paid.json.token}`,
      })
      // Paying started, nothing confirmed: nothing is funded and nothing is in the ledger.
      expect(await statusOf(i1.id)).toBe('pending')
      expect(await balances(client)).toEqual([])
      const session = await t.call('GET', `Payment/sandbox/${paid.json.token}`)
      expect(session.json).toMatchObject({
        status: 'open',
        totalMinor: 103000,
        projectTitle: 'Steel frame checks for a warehouse',
      })

      const bad = await t.call('POST', `Payment/sandbox/${paid.json.token}/pay`, {
        body: { ...card(), cardNumber: '4242 4242 4242 4241', expiry: '01/20' },
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(['cardNumber', 'expiry'])
      const charged = await t.call('POST', `Payment/sandbox/${paid.json.token}/pay`, {
        body: card('4242 4242 4242 4242'),
      })
      expect(charged.json.status).toBe('succeeded')
      expect(await statusOf(i1.id)).toBe('funded')
      expect(await balances(client)).toEqual([
        { currency: 'EUR', heldMinor: 103000, availableMinor: 0, earnedMinor: 0, paidOutMinor: 0 },
      ])
      const details = (
        await t.call('GET', `projects/${c.projectId}/paid-details`, { token: freelancer.token })
      ).json
      expect(details).toMatchObject({
        paidMinor: 103000,
        heldMinor: 103000,
        releasedMinor: 0,
        platformFeesMinor: 0,
      })
      expect(details.installments[0]).toMatchObject({
        amountMinor: 100000,
        clientFeeMinor: 3000,
        platformFeeMinor: 10000,
        paidMinor: 103000,
      })
      // Paying again is out of order: the installment is funded.
      expect(
        (
          await t.call('POST', 'Payment/PayProjectInstallments', {
            token: client.token,
            body: { projectId: c.projectId, installmentIds: [i1.id] },
          })
        ).status,
      ).toBe(409)
    })

    test('a declined card leaves the installment unfunded and the checkout open for another card; the confirmation card needs the extra step', async () => {
      const c = await contractFor(t.call, database, client, freelancer)
      const [i1, i2] = c.installments
      const declined = await fund(t.call, client, c.projectId, [i1.id], testCards.declined)
      expect(declined.session).toMatchObject({ status: 'failed', failure: 'card_declined' })
      expect(await statusOf(i1.id)).toBe('pending')
      const retry = await t.call('POST', `Payment/sandbox/${declined.payment.token}/pay`, { body: card() })
      expect(retry.json.status).toBe('succeeded')
      expect(await statusOf(i1.id)).toBe('funded')

      const confirming = await fund(t.call, client, c.projectId, [i2.id], testCards.confirm)
      expect(confirming.session.status).toBe('requires_action')
      expect(await statusOf(i2.id)).toBe('pending')
      const refusedStep = await t.call('POST', `Payment/sandbox/${confirming.payment.token}/confirm`, {
        body: { approve: false },
      })
      expect(refusedStep.json).toMatchObject({ status: 'failed', failure: 'authentication_failed' })
      await t.call('POST', `Payment/sandbox/${confirming.payment.token}/pay`, {
        body: card(testCards.confirm),
      })
      const approved = await t.call('POST', `Payment/sandbox/${confirming.payment.token}/confirm`, {
        body: { approve: true },
      })
      expect(approved.json.status).toBe('succeeded')
      expect(await statusOf(i2.id)).toBe('funded')
      expect(
        (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: client.token })).json.paidMinor,
      ).toBe(154500)
    })

    test('a newer checkout replaces an unfinished one, which can then no longer be paid', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [80000])
      const first = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [c.installments[0].id] },
      })
      const second = await fund(t.call, client, c.projectId, [c.installments[0].id])
      expect(second.session.status).toBe('succeeded')
      const late = await t.call('POST', `Payment/sandbox/${first.json.token}/pay`, { body: card() })
      expect(late.status).toBe(409)
      expect(
        (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: client.token })).json.paidMinor,
      ).toBe(82400)
    })

    test('approving releases the held money to the freelancer less the platform fee; a repeat moves nothing', async () => {
      const c = await contractFor(t.call, database, client, freelancer, [120000])
      const i = c.installments[0]
      await fund(t.call, client, c.projectId, [i.id])
      const before = await balances(freelancer)
      expect(
        (
          await t.call('POST', `projects/installments/${i.id}/submit`, {
            token: freelancer.token,
            body: { note: 'Calculations attached.' },
          })
        ).status,
      ).toBe(200)
      const approved = await t.call('POST', `projects/installments/${i.id}/approve`, {
        token: client.token,
        body: {},
      })
      expect(approved.json.installments[0].status).toBe('released')
      const after = await balances(freelancer)
      const gain = after[0].availableMinor - (before[0]?.availableMinor ?? 0)
      expect(gain).toBe(108000)
      expect(after[0].earnedMinor - (before[0]?.earnedMinor ?? 0)).toBe(108000)
      const details = (await t.call('GET', `projects/${c.projectId}/cost-details`, { token: client.token }))
        .json
      expect(details).toMatchObject({
        paidMinor: 123600,
        heldMinor: 0,
        releasedMinor: 108000,
        platformFeesMinor: 15600,
      })
      expect(details.installments[0]).toMatchObject({
        status: 'released',
        clientFeeMinor: 3600,
        platformFeeMinor: 12000,
        releasedMinor: 108000,
      })
      const rows = await ledgerRows()
      expect(
        (await t.call('POST', `projects/installments/${i.id}/approve`, { token: client.token, body: {} }))
          .status,
      ).toBe(409)
      expect(await t.api.services.projects.releaseInstallment(i.id)).toBe(false)
      expect(await ledgerRows()).toBe(rows)
    })

    test('one event, one notification: each step of a contract tells the other side once, and its taker not at all', async () => {
      // Two new people, so their bells hold only this contract's notifications (issue 39 item 6).
      const [cli, fre] = [await t.user('client', 'Nina', 'Once'), await t.user('freelancer', 'Otto', 'Once')]
      const bells = async () => {
        await t.api.jobs.outbox.drain()
        const keys = async (u: U) =>
          (
            await database.db
              .selectFrom('notification')
              .select('message_key')
              .where('user_id', '=', u.id)
              .orderBy('id')
              .execute()
          ).map((n) => n.message_key.replace(/^projects:notify\./, ''))
        return { client: await keys(cli), freelancer: await keys(fre) }
      }
      const c = await contractFor(t.call, database, cli, fre, [50000])
      const i = c.installments[0]
      // The proposal, then its acceptance (which starts the contract: no second notice of that).
      expect(await bells()).toEqual({ client: ['proposalReceivedFrom'], freelancer: ['proposalAccepted'] })
      await fund(t.call, cli, c.projectId, [i.id])
      await t.call('POST', `projects/installments/${i.id}/submit`, {
        token: fre.token,
        body: { note: 'Done.' },
      })
      // Approving releases the money at once: one notice of it, not "approved" and "released".
      await t.call('POST', `projects/installments/${i.id}/approve`, { token: cli.token, body: {} })
      expect(await bells()).toEqual({
        client: ['proposalReceivedFrom', 'installmentSubmitted'],
        freelancer: ['proposalAccepted', 'installmentFunded', 'installmentReleased'],
      })
    })

    test("refusals: another user's contract is 404, a changed total 409, a foreign installment 400, the old fund move 400 — and nothing moves", async () => {
      const c = await contractFor(t.call, database, client, freelancer)
      const [i1, i2] = c.installments
      const foreign = await contractFor(t.call, database, other, freelancer, [5000])
      const rows = await ledgerRows()
      const payments = async () =>
        Number(
          (
            await database.db
              .selectFrom('payment')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      const made = await payments()
      const pay = (who: U, body: Record<string, unknown>) =>
        t.call('POST', 'Payment/PayProjectInstallments', { token: who.token, body })
      expect((await pay(other, { projectId: c.projectId, installmentIds: [i1.id] })).status).toBe(404)
      expect((await pay(freelancer, { projectId: c.projectId, installmentIds: [i1.id] })).status).toBe(404)
      expect(
        (
          await t.call(
            'GET',
            `Payment/PayProjectInstallments?projectId=${c.projectId}&installmentIds=${i1.id}`,
            { token: other.token },
          )
        ).status,
      ).toBe(404)
      expect(
        (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: other.token })).status,
      ).toBe(404)
      expect(
        (await t.call('GET', `projects/${c.projectId}/cost-details`, { token: other.token })).status,
      ).toBe(404)
      const tampered = await pay(client, { projectId: c.projectId, installmentIds: [i1.id], totalMinor: 1 })
      expect(tampered.status).toBe(409)
      expect(tampered.json.detail).toContain('103000')
      const mixed = await pay(client, {
        projectId: c.projectId,
        installmentIds: [i1.id, foreign.installments[0].id],
      })
      expect(mixed.status).toBe(400)
      expect(mixed.json.errors.installmentIds).toBeDefined()
      expect(
        (await pay(client, { projectId: c.projectId, installmentIds: [] })).json.errors.installmentIds,
      ).toBeDefined()
      expect(
        (await t.call('POST', `projects/installments/${i2.id}/fund`, { token: client.token, body: {} }))
          .status,
      ).toBe(400)
      // An amount in the body is not the payment's: the contract's is.
      const priced = await pay(client, {
        projectId: c.projectId,
        installmentIds: [i2.id],
        amountMinor: 1,
        feeMinor: 0,
      })
      expect(priced.json.totalMinor).toBe(51500)
      expect(await payments()).toBe(made + 1)
      expect(await ledgerRows()).toBe(rows)
      expect(await statusOf(i2.id)).toBe('pending')
      expect(await balances(other)).toEqual([])
    })

    test("the callback: a bad or missing signature is refused; a replayed event applies once; the amount must be the payment's", async () => {
      const c = await contractFor(t.call, database, client, freelancer, [40000])
      const paid = await t.call('POST', 'Payment/PayProjectInstallments', {
        token: client.token,
        body: { projectId: c.projectId, installmentIds: [c.installments[0].id] },
      })
      const secret = await t.api.services.sandboxGateway.secret()
      const event = sandboxEvent(secret, 'payment.succeeded', {
        paymentToken: paid.json.token,
        amountMinor: 41200,
        currency: 'EUR',
      })
      const send = (body: string, headers: Record<string, string>) =>
        t.raw('POST', 'Payment/PaymentCallback', { body, headers })
      expect((await send(event.body, { 'content-type': 'application/json' })).status).toBe(400)
      expect(
        (
          await send(event.body, {
            ...event.headers,
            [SIGNATURE_HEADER]: event.headers[SIGNATURE_HEADER].replace(/.$/, (d) => (d === '0' ? '1' : '0')),
          })
        ).status,
      ).toBe(400)
      const wrongAmount = sandboxEvent(secret, 'payment.succeeded', {
        paymentToken: paid.json.token,
        amountMinor: 1,
        currency: 'EUR',
      })
      expect((await send(wrongAmount.body, wrongAmount.headers)).status).toBe(400)
      expect(await statusOf(c.installments[0].id)).toBe('pending')
      const first = await send(event.body, event.headers)
      expect(await first.json()).toEqual({ received: true, applied: true })
      const again = await send(event.body, event.headers)
      expect(await again.json()).toEqual({ received: true, applied: false })
      // A late failure after the success changes nothing.
      const late = sandboxEvent(secret, 'payment.failed', {
        paymentToken: paid.json.token,
        amountMinor: 41200,
        currency: 'EUR',
        failure: 'card_declined',
      })
      expect(await (await send(late.body, late.headers)).json()).toEqual({ received: true, applied: false })
      expect(await statusOf(c.installments[0].id)).toBe('funded')
      expect(
        (await t.call('GET', `projects/${c.projectId}/paid-details`, { token: client.token })).json.paidMinor,
      ).toBe(41200)
    })
  })
}
