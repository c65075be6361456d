import { expect, test, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { apiCall, hiredProject } from './contract-setup'
import { fundByApi } from './checkout'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { SANDBOX } from '#server/modules/payments/gateways/sandbox.ts'
import { createPayouts } from '#server/modules/payments/payouts.ts'
import { jsEnabled } from './project-js'

// The admin's dashboard and payments screen end to end (issue 18 item 3, decisions 250–253), as
// Sam Support (a SuperAdmin): the dashboard's charts carry figures that match the database; the
// payments screen lists a payout whose gateway answer was lost and a refund request made here,
// its ledger checks are green, and "Reconcile now" settles the payout once. JavaScript on and
// off; axe on both pages; a client is sent to the unauthorized page.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const eur = (minor: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(minor / 100)

test("the admin sees the dashboard's charts and the payments screen, and reconciles a stuck payout", async ({
  browser,
}) => {
  const js = jsEnabled()
  const word = `m${Date.now().toString(36)}`
  const db = shell().db
  // Work with money: stage 1 released to Fred, stage 2 funded and then asked back by Clara.
  const { clientToken, freelancerToken, projectId, installmentIds } = await hiredProject(shell().base, db, {
    title: `Footbridge ${word} checks`,
    description:
      'Check a timber footbridge over a stream: loads, connections and the foundations on both banks.',
    coverLetter: 'I have checked a dozen timber footbridges and can send the report within two weeks.',
    durationDays: 14,
    installments: [
      { title: 'Survey', amountMinor: 40000 },
      { title: 'Report', amountMinor: 30000 },
    ],
  })
  await fundByApi(shell().base, clientToken, projectId, installmentIds)
  await apiCall(shell().base, 'POST', `projects/installments/${installmentIds[0]}/submit`, freelancerToken, {
    note: 'Survey attached.',
  })
  await apiCall(shell().base, 'POST', `projects/installments/${installmentIds[0]}/approve`, clientToken, {})
  await apiCall(shell().base, 'POST', `RefundRequest/${projectId}/${installmentIds[1]}/10000`, clientToken, {
    reason: `Part of the report ${word} is missing.`,
  })
  // A payout whose gateway answer was lost (decision 250): asked for, then the process "died".
  const bank = await apiCall(
    shell().base,
    'POST',
    'freelancers/AddFreelancerPaymentMethod',
    freelancerToken,
    { holderName: 'Fred Freelancer', kind: 'bank', iban: 'DE89 3704 0044 0532 0130 00' },
  )
  const fred = await db.db
    .selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.freelancer.email)
    .executeTakeFirstOrThrow()
  const lost = { name: SANDBOX, payout: () => Promise.reject(new Error('process killed')) } as never
  const asked = await createPayouts({
    db: db.db,
    dialect: db.dialect,
    gateway: lost,
    minimumMinor: 2000,
  }).request({ userId: fred.id } as never, { amountMinor: 20000, currency: 'EUR', paymentMethodId: bank.id })
  await db.db
    .updateTable('payout')
    .set({ updated_at: new Date(Date.now() - 3_600_000).toISOString() })
    .where('id', '=', asked.id)
    .execute()

  // Nobody but a SuperAdmin.
  const clara = await signInAs(browser, shell().base, accounts.client.email)
  await clara.goto(`${shell().base}/admin/payments`)
  await expect(clara).toHaveURL(/\/auth\/unauthorized$/)

  // The menu's "Administration" opens the dashboard.
  const sam = await signInAs(browser, shell().base, accounts.admin.email)
  await sam.goto(`${shell().base}/dashboard`)
  await sam.goto(
    `${shell().base}${await sam.locator('a', { hasText: 'Administration' }).first().getAttribute('href')}`,
  )
  await expect(main(sam).locator('h1')).toHaveText('Administration')
  const count = async (table: 'app_user' | 'project' | 'contract') =>
    String(
      Number(
        (
          await db.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    )
  await expect(main(sam).getByTestId('total-users')).toHaveText(await count('app_user'))
  await expect(main(sam).getByTestId('total-projects')).toHaveText(await count('project'))
  await expect(main(sam).getByTestId('total-contracts')).toHaveText(await count('contract'))
  // Held: stage 2 and its 3 % client fee. Released this week: stage 1 and its fee.
  await expect(main(sam).getByTestId('held-EUR')).toHaveText(eur(30900))
  const moneyChart = main(sam).getByTestId('chart-money-EUR')
  await expect(moneyChart.locator('svg rect')).toHaveCount(24)
  await moneyChart.locator('summary').click()
  const thisWeek = moneyChart.locator('tbody tr').last()
  await expect(thisWeek.locator('td').nth(1)).toHaveText(eur(30900))
  await expect(thisWeek.locator('td').nth(2)).toHaveText(eur(41200))
  const roles = main(sam).getByTestId('chart-users-by-role')
  await roles.locator('summary').click()
  await expect(roles.locator('tbody tr', { hasText: 'Administrators' }).locator('td').nth(1)).toHaveText('1')
  await expectNoAxeViolations(sam)

  // The period filter is a GET form.
  await main(sam).getByRole('combobox', { name: 'Period' }).selectOption('4')
  await main(sam).getByRole('button', { name: 'Show' }).click()
  await expect(sam).toHaveURL(/weeks=4/)
  await expect(main(sam).getByTestId('chart-new-users').locator('tbody tr')).toHaveCount(4)

  // Payments: the lost payout (stuck), the refund request, the ledger checks all green.
  await sam.goto(`${shell().base}/admin/payments`)
  await expect(main(sam).locator('h1')).toHaveText('Payments')
  const payout = main(sam).getByTestId('pending-payout')
  await expect(payout).toHaveCount(1)
  await expect(payout).toContainText('Fred Freelancer')
  await expect(payout).toContainText('Stuck')
  await expect(payout).toContainText(eur(20000))
  const refund = main(sam)
    .getByTestId('refund-request')
    .filter({ hasText: `Part of the report ${word} is missing.` })
  await expect(refund).toContainText(`Footbridge ${word} checks`)
  await expect(refund).toContainText(eur(10000))
  for (const check of [
    'currenciesSumToZero',
    'transactionsBalance',
    'noNegativeBalances',
    'runningSumsMatch',
    'heldMatchesInstallments',
  ])
    await expect(main(sam).getByTestId(`check-${check}`)).toContainText('OK')
  await expect(main(sam).getByTestId('in-flight')).toContainText('1 payout or refund')
  await expectNoAxeViolations(sam)

  // Reconcile now: a reason is required (the browser's check lifted to see the server's), then the payout is paid once.
  const form = main(sam).getByTestId('reconcile-form')
  await form.getByLabel('Reason').evaluate((el: HTMLInputElement) => el.removeAttribute('required'))
  await submitAndWait(sam, form.getByRole('button', { name: 'Reconcile now' }), js)
  await expect(main(sam).locator('#field-reason-error')).toHaveText('Say why you are reconciling now.')
  await form.getByLabel('Reason').fill('Payout stuck after the outage')
  await form.getByRole('button', { name: 'Reconcile now' }).click()
  await expect(main(sam).getByTestId('reconciled')).toHaveText(
    'Reconciliation done. Payouts settled: 1. Refunds settled: 0. Still in flight: 0.',
  )
  await expect(main(sam).getByTestId('pending-payout')).toHaveCount(0)
  await expect(main(sam).getByTestId('in-flight')).toHaveText('Nothing is stuck in flight.')
  expect(
    (await db.db.selectFrom('payout').select('status').where('id', '=', asked.id).executeTakeFirstOrThrow())
      .status,
  ).toBe('paid')
  const audit = await db.db
    .selectFrom('admin_audit')
    .select(['action', 'object_type', 'to_state', 'reason'])
    .where('object_type', '=', 'payout')
    .where('object_id', '=', asked.id)
    .execute()
  expect(audit).toEqual([
    { action: 'reconcile', object_type: 'payout', to_state: 'paid', reason: 'Payout stuck after the outage' },
  ])
  // Reloading the page does not reconcile again; the checks stay green.
  await sam.reload()
  for (const check of ['currenciesSumToZero', 'transactionsBalance', 'heldMatchesInstallments'])
    await expect(main(sam).getByTestId(`check-${check}`)).toContainText('OK')
  expect(
    (
      await db.db
        .selectFrom('ledger_transaction')
        .select('ref')
        .where('ref', '=', `payout-paid:${asked.id}`)
        .execute()
    ).length,
  ).toBe(1)
  // The checks show their last run (they read the whole ledger, decision 264); "Run the checks now" runs them again.
  const lastRun = await main(sam).getByTestId('health-checked-at').getAttribute('data-checked-at')
  await sam.reload()
  await expect(main(sam).getByTestId('health-checked-at')).toHaveAttribute('data-checked-at', lastRun!)
  await submitAndWait(sam, main(sam).getByRole('button', { name: 'Run the checks now' }), js)
  await expect(main(sam).getByTestId('health-checked-at')).not.toHaveAttribute('data-checked-at', lastRun!)
  for (const check of [
    'currenciesSumToZero',
    'transactionsBalance',
    'noNegativeBalances',
    'runningSumsMatch',
    'heldMatchesInstallments',
  ])
    await expect(main(sam).getByTestId(`check-${check}`)).toContainText('OK')
  await expectNoAxeViolations(sam)
})
