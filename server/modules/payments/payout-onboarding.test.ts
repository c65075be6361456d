import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  forged,
  signedEvent as webhook,
  standInEnv,
  startStripeStandIn,
} from '../../../tests/support/stripe-stand-in.ts'
import { dialects, useTestDatabase } from '../../../tests/integration/databases.ts'
import { migrateToLatest } from '#server/db/database.ts'
import { migrations } from '#server/db/migrations/index.ts'
import {
  contractFor,
  fund,
  paymentsTestApi,
  rowCount,
  usePayments,
} from '../../../tests/support/modules/payments.ts'
import { failingPayoutDestinations } from './gateways/test-cards.ts'

// Payout onboarding through the gateway (issue 42 item 5, decision 333), on both databases through
// the real API: "Set up payouts" opens one connected account and sends the browser to the gateway's
// hosted onboarding; the account's status comes back only as a signed account.updated event
// (Stripe's signed with the stripe package's own test helper, generateTestHeaderString); payouts go
// to it only once it is enabled. Stripe's API is the loopback stand-in (a mock of what cannot run
// here); the sandbox is the real built-in gateway.
type T = ReturnType<typeof paymentsTestApi>
type U = { id: number; token: string }
type S = ReturnType<typeof usePayments>

/** The Connect endpoint's own signing secret: connected accounts' events are signed with it. */
const CONNECT_SECRET = 'whsec_workneerconnect0000'
const accountUpdated = (account: string, detailsSubmitted: boolean, payoutsEnabled: boolean) =>
  webhook(
    'account.updated',
    {
      id: account,
      object: 'account',
      type: 'express',
      details_submitted: detailsSubmitted,
      payouts_enabled: payoutsEnabled,
    },
    { secret: CONNECT_SECRET },
  )

/** Calls bound to a describe block's API, read when called (the block's hooks make it). */
function helpers(s: S) {
  const call = (...a: Parameters<T['call']>) => s.t.call(...a)
  const status = async (u: U) => (await call('GET', 'Payment/payout-account', { token: u.token })).json
  const withdraw = (u: U, paymentMethodId: number, amountMinor: number) =>
    call('POST', 'Payment/payouts', {
      token: u.token,
      body: { amountMinor, currency: 'EUR', paymentMethodId },
    })
  const counts = () => Promise.all([rowCount(s.database, 'payout'), rowCount(s.database, 'ledger_entry')])
  const accountRows = (u: U) =>
    s.database.db
      .selectFrom('payment_method')
      .selectAll()
      .where('user_id', '=', u.id)
      .where('kind', '=', 'stripe_account')
      .execute()
  return { call, status, withdraw, counts, accountRows }
}

for (const dialect of dialects) {
  describe(`payout onboarding through Stripe on ${dialect}`, () => {
    let fake: Awaited<ReturnType<typeof startStripeStandIn>>
    beforeAll(async () => {
      fake = await startStripeStandIn()
    })
    afterAll(() => fake.stop())
    const s = usePayments(dialect, () => ({
      ...standInEnv(fake.base),
      STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    }))
    const { call, status, withdraw, counts, accountRows } = helpers(s)
    const send = async (w: { body: string; headers: Record<string, string> }) => {
      const r = await s.t.raw('POST', 'Payment/PaymentCallback?gateway=stripe', {
        body: w.body,
        headers: w.headers,
      })
      return { status: r.status, json: await r.json() }
    }

    test('Set up payouts opens one Express account, however often it is pressed, and an Account Link back to Payment Details', async () => {
      expect(await status(s.freelancer)).toMatchObject({ gateway: 'stripe', status: 'not_set_up' })
      fake.sent.length = 0
      const presses = await Promise.all(
        [1, 2, 3].map(() => call('POST', 'Payment/payout-account', { token: s.freelancer.token })),
      )
      expect(presses.map((p) => p.status)).toEqual([200, 200, 200])
      expect((await call('POST', 'Payment/payout-account', { token: s.freelancer.token })).status).toBe(200)
      const rows = await accountRows(s.freelancer)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        account_gateway: 'stripe',
        payouts_enabled: 0,
        details_submitted: 0,
        is_default: 0,
      })
      const opened = fake.sent.filter((r) => r.path === '/v1/accounts')
      expect(opened.length).toBeGreaterThanOrEqual(1)
      expect(new Set(opened.map((r) => r.idempotencyKey))).toEqual(
        new Set([`connected-account-user-${s.freelancer.id}`]),
      )
      expect(Object.fromEntries(opened[0].form)).toMatchObject({
        type: 'express',
        'capabilities[transfers][requested]': 'true',
        'metadata[userId]': String(s.freelancer.id),
      })
      const links = fake.sent.filter((r) => r.path === '/v1/account_links')
      expect(links).toHaveLength(4)
      expect(Object.fromEntries(links[0].form)).toEqual({
        account: rows[0].stripe_account,
        type: 'account_onboarding',
        return_url: 'https://workneer.example/peyment-details?onboarding=return',
        refresh_url: 'https://workneer.example/peyment-details?onboarding=refresh',
      })
      expect(presses[0].json.url).toMatch(new RegExp(`^${fake.base}/setup/acctlink_\\d+$`))
      expect(await status(s.freelancer)).toMatchObject({ status: 'incomplete', masked: 'acct_••••0001' })
      // A client has no payout account; a hand-typed account id is no longer taken (400 naming the kind).
      expect((await call('POST', 'Payment/payout-account', { token: s.client.token })).status).toBe(403)
      const typed = await call('POST', 'freelancers/AddFreelancerPaymentMethod', {
        token: s.freelancer.token,
        body: { kind: 'stripe_account', holderName: 'Fran Engineer', stripeAccount: 'acct_1Nv0FGQ9RKHgCVdK' },
      })
      expect(typed.status).toBe(400)
      expect(typed.json.errors.kind).toBeDefined()
      expect(await accountRows(s.freelancer)).toHaveLength(1)
    })

    test('the signed account.updated webhook sets the status; a bad signature is refused and changes nothing; payouts wait for it', async () => {
      const [row] = await accountRows(s.freelancer)
      const account = row.stripe_account!
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [40000])
      const paid = await call('POST', 'Payment/PayProjectInstallments', {
        token: s.client.token,
        body: { projectId: c.projectId, installmentIds: [c.installments[0].id] },
      })
      const completed = webhook('checkout.session.completed', {
        id: `cs_test_${paid.json.token}`,
        object: 'checkout.session',
        client_reference_id: paid.json.token,
        amount_total: paid.json.totalMinor,
        currency: 'eur',
        payment_status: 'paid',
      })
      expect((await send(completed)).json.applied).toBe(true)
      for (const path of ['submit', 'approve'] as const)
        expect(
          (
            await call('POST', `projects/installments/${c.installments[0].id}/${path}`, {
              token: path === 'submit' ? s.freelancer.token : s.client.token,
              body: path === 'submit' ? { note: 'Calculations attached.' } : {},
            })
          ).status,
        ).toBe(200)

      // Not enabled yet: 409 with its code, and nothing moves.
      const before = await counts()
      const early = await withdraw(s.freelancer, row.id, 10000)
      expect(early.status).toBe(409)
      expect(early.json.code).toBe('payouts_not_enabled')
      expect(await counts()).toEqual(before)

      const enabled = accountUpdated(account, true, true)
      const foreign = webhook(
        'account.updated',
        { id: account, object: 'account', details_submitted: true, payouts_enabled: true },
        { secret: 'whsec_someoneelse000000' },
      )
      expect((await send(foreign)).status).toBe(400)
      expect((await send(forged(enabled))).status).toBe(400)
      // A body changed after signing (not enabled → enabled) does not match its signature.
      const signedOff = accountUpdated(account, false, false)
      const tampered = { ...signedOff, body: signedOff.body.replace(/false/g, 'true') }
      expect((await send(tampered)).status).toBe(400)
      expect(await status(s.freelancer)).toMatchObject({ status: 'incomplete', detailsSubmitted: false })

      // Submitted, still checked by Stripe: incomplete. Then enabled: the default, and paid by a transfer.
      expect((await send(accountUpdated(account, true, false))).json).toEqual({
        received: true,
        applied: true,
      })
      expect(await status(s.freelancer)).toMatchObject({ status: 'incomplete', detailsSubmitted: true })
      expect((await withdraw(s.freelancer, row.id, 10000)).status).toBe(409)
      expect((await send(enabled)).json).toEqual({ received: true, applied: true })
      expect((await send(enabled)).json).toEqual({ received: true, applied: false })
      expect(await status(s.freelancer)).toMatchObject({ status: 'enabled', paymentMethodId: row.id })
      expect((await accountRows(s.freelancer))[0].is_default).toBe(1)
      fake.sent.length = 0
      const payout = await withdraw(s.freelancer, row.id, 10000)
      expect(payout.status, payout.text).toBe(200)
      expect(payout.json).toMatchObject({ status: 'paid', destinationKind: 'stripe_account' })
      const transfer = fake.sent.find((r) => r.path === '/v1/transfers')!
      expect(transfer.form.get('destination')).toBe(account)
      expect(transfer.form.get('amount')).toBe('10000')
      // An account of nobody's here: acknowledged, nothing applied.
      expect((await send(accountUpdated('acct_someoneelse01', true, true))).json).toEqual({
        received: true,
        applied: false,
      })
      // Kept, never removed: it is switched off instead.
      const removed = await call('DELETE', `freelancers/DeletePaymentMethod/${row.id}`, {
        token: s.freelancer.token,
      })
      expect(removed.status).toBe(409)
      expect(removed.json.code).toBe('payout_account_kept')
      expect(await accountRows(s.freelancer)).toHaveLength(1)
    })
  })

  describe(`payout onboarding through the sandbox on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { call, status, withdraw, counts, accountRows } = helpers(s)
    const onboard = (account: string, body: Record<string, unknown>) =>
      call('POST', `Payment/sandbox/accounts/${account}`, { body })

    test("the sandbox's hosted page: back unfinished stays incomplete, a bad field is named, the bank's refusal stays incomplete, the form enables it; payouts follow", async () => {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [40000])
      await fund(s.t.call, s.client, c.projectId, [c.installments[0].id])
      await call('POST', `projects/installments/${c.installments[0].id}/submit`, {
        token: s.freelancer.token,
        body: { note: 'Calculations attached.' },
      })
      await call('POST', `projects/installments/${c.installments[0].id}/approve`, {
        token: s.client.token,
        body: {},
      })

      const started = await call('POST', 'Payment/payout-account', { token: s.freelancer.token })
      expect(started.json.url).toMatch(/^\/onboarding\/sbx_acct_[0-9a-f]{24}$/)
      const account = String(started.json.url).split('/').pop()!
      expect((await call('POST', 'Payment/payout-account', { token: s.freelancer.token })).json.url).toBe(
        started.json.url,
      )
      expect(await accountRows(s.freelancer)).toHaveLength(1)
      // Back without finishing: the page still answers, and the account stays incomplete.
      expect((await call('GET', `Payment/sandbox/accounts/${account}`)).json).toEqual({
        account,
        status: 'incomplete',
        returnUrl: '/peyment-details',
      })
      expect((await call('GET', 'Payment/sandbox/accounts/sbx_acct_000000000000000000000000')).status).toBe(
        404,
      )
      const [row] = await accountRows(s.freelancer)
      const before = await counts()
      const early = await withdraw(s.freelancer, row.id, 5000)
      expect([early.status, early.json.code]).toEqual([409, 'payouts_not_enabled'])
      expect(await counts()).toEqual(before)

      const bad = await onboard(account, { name: '', iban: 'not an iban' })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual(['name', 'iban'].sort())
      const refused = await onboard(account, { name: 'Fran Engineer', iban: failingPayoutDestinations.iban })
      expect(refused.json.status).toBe('incomplete')
      expect(await status(s.freelancer)).toMatchObject({ status: 'incomplete', detailsSubmitted: true })

      const done = await onboard(account, { name: 'Fran Engineer', iban: 'NL91 ABNA 0417 1643 00' })
      expect(done.json.status).toBe('enabled')
      expect(await status(s.freelancer)).toMatchObject({ gateway: 'sandbox', status: 'enabled' })
      const list = (
        await call('GET', `freelancers/${s.freelancer.id}/GetAllPaymentMethodsForFreelancer`, {
          token: s.freelancer.token,
        })
      ).json.data
      expect(list).toEqual([
        expect.objectContaining({ kind: 'stripe_account', isDefault: true, payoutsEnabled: true }),
      ])
      expect(JSON.stringify(list)).not.toContain(account)
      const payout = await withdraw(s.freelancer, row.id, 5000)
      expect(payout.status, payout.text).toBe(200)
      expect(payout.json).toMatchObject({ status: 'paid', amountMinor: 5000 })
    })
  })

  describe(`migration 0050 on ${dialect}`, () => {
    const old = useTestDatabase(dialect, undefined, { open: { migrate: false } })

    test('hand-typed Stripe accounts stay as Stripe accounts: enabled when a payout reached one, else incomplete', async () => {
      const names = Object.keys(migrations)
      const before = names.slice(0, names.indexOf('0050-payout-onboarding'))
      await migrateToLatest(old.database, Object.fromEntries(before.map((n) => [n, migrations[n]])))
      const db = old.database.db
      const now = new Date().toISOString()
      const user = await db
        .insertInto('app_user')
        .values({
          email: 'fran@example.test',
          first_name: 'Fran',
          last_name: 'Engineer',
          password_hash: null,
          company_name: null,
          phone_number: null,
          account_type: 'freelancer',
          status: 'Active',
          image_file_id: null,
          terms_accepted_at: now,
          created_at: now,
          updated_at: now,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      const method = async (kind: string, stripe_account: string | null) =>
        (
          await db
            .insertInto('payment_method')
            .values({
              user_id: user.id,
              kind,
              holder_name: 'Fran Engineer',
              iban: kind === 'bank' ? 'DE89370400440532013000' : null,
              bic: null,
              bank_name: null,
              email: null,
              stripe_account,
              is_default: 0,
              status: 'active',
              created_at: now,
              updated_at: now,
            } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
      const paidTo = await method('stripe_account', 'acct_1PaidBefore01')
      const neverPaid = await method('stripe_account', 'acct_1NeverPaid001')
      const bank = await method('bank', null)
      const payout = (payment_method_id: number, status: string) => ({
        user_id: user.id,
        payment_method_id,
        destination_kind: 'stripe_account',
        destination_masked: 'acct_••••',
        gateway: 'stripe',
        gateway_ref: null,
        status,
        amount_minor: 5000,
        currency: 'EUR',
        failure: null,
        created_at: now,
        updated_at: now,
      })
      await db
        .insertInto('payout')
        .values([payout(paidTo, 'paid'), payout(neverPaid, 'failed')] as never)
        .execute()
      await migrateToLatest(old.database)
      const rows = await db
        .selectFrom('payment_method')
        .select(['id', 'account_gateway', 'details_submitted', 'payouts_enabled', 'stripe_account'])
        .orderBy('id')
        .execute()
      expect(rows).toEqual([
        {
          id: paidTo,
          account_gateway: 'stripe',
          details_submitted: 1,
          payouts_enabled: 1,
          stripe_account: 'acct_1PaidBefore01',
        },
        {
          id: neverPaid,
          account_gateway: 'stripe',
          details_submitted: 0,
          payouts_enabled: 0,
          stripe_account: 'acct_1NeverPaid001',
        },
        { id: bank, account_gateway: null, details_submitted: 0, payouts_enabled: 0, stripe_account: null },
      ])
    })
  })
}
