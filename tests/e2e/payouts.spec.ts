import { expect, test, type Page, type WebSocket } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { apiCall } from './contract-setup'
import { failingPayoutDestinations } from '#server/modules/payments/gateways/test-cards.ts'
import { settle } from './settle'
import { jsEnabled } from './project-js'
import { confirmStep } from './confirm'

// Issue 17 item 6 and issue 42 item 5 end to end, with JavaScript on and off: a freelancer with
// released money (funded in the sandbox and approved through the API) sets up payouts on the
// sandbox's hosted onboarding page (once coming back unfinished, then finishing), opens /payouts,
// withdraws part of it to that payout account and sees it paid; a payout to the sandbox's failing
// PayPal address fails and the money is back in available; an amount under the minimum is named;
// the dashboard shows what was paid out.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  apiCall(shell().base, method, path, token, body)

/** Fills the withdraw form and sends it; with `question`, the confirmation step must ask it, and is confirmed. */
async function withdraw(page: Page, amount: string, method: RegExp, question?: string | RegExp) {
  const form = main(page).getByTestId('payouts-form')
  await form.getByLabel('Amount').fill(amount)
  const option = await form
    .getByLabel('Pay out to')
    .locator('option')
    .filter({ hasText: method })
    .getAttribute('value')
  await form.getByLabel('Pay out to').selectOption(option!)
  await form.getByRole('button', { name: 'Withdraw' }).click()
  await settle(page)
  if (question) await confirmStep(page, question)
}

/**
 * A live update for the freelancer while the page shows an action's reply, pushed through the test-only
 * hook (E2E=1), once the page's hub has received it. The reply holds the reload it asks for; the
 * form's next reply, the confirmation step, must take over the hold, not be reloaded away (decision 352).
 */
async function liveUpdateDuringReply(hub: Promise<WebSocket>, userId: number) {
  const told = (await hub).waitForEvent('framereceived', (f) => String(f.payload).includes('"countNotify"'))
  const sent = await fetch(`${shell().base}/_e2e/hubs/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hub: 'notifications', to: 'user', key: userId, target: 'countNotify', args: [1] }),
  })
  expect(sent.status).toBe(202)
  await told
}

/** Payment Details' "Set up payouts": back from the sandbox's page unfinished, then finished; answers the account as shown masked. */
async function setUpPayouts(page: Page) {
  await page.goto(`${shell().base}/peyment-details`)
  const card = main(page).getByTestId('payout-account')
  await expect(card.getByTestId('payout-account-status')).toHaveText('Not set up')
  await card.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page).toHaveURL(/\/onboarding\/sbx_acct_[0-9a-f]{24}$/)
  await expectNoAxeViolations(page)
  await main(page).getByRole('link', { name: 'Return without finishing' }).click()
  await expect(card.getByTestId('payout-account-status')).toHaveText('Incomplete')
  await expect(card).toContainText('You came back before finishing.')
  await card.getByRole('button', { name: 'Continue setup' }).click()
  await main(page).getByLabel("Account holder's name").fill('Fred Freelancer')
  await main(page).getByLabel('IBAN').fill('NL91 ABNA 0417 1643 00')
  await main(page).getByRole('button', { name: 'Finish setup' }).click()
  await expect(page).toHaveURL(/\/peyment-details\?onboarding=return$/)
  await expect(card.getByTestId('payout-account-status')).toHaveText('Enabled')
  await expect(card.getByRole('button')).toHaveCount(0)
  await expectNoAxeViolations(page)
  const masked = (await card.locator('.masked').textContent())!
  expect(masked).toMatch(/^sbx_acct_••••[0-9a-f]{4}$/)
  return masked
}

test('a freelancer withdraws released money, sees it paid, and sees a failing payout return the money', async ({
  browser,
}) => {
  const login = (email: string) => api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })
  const token = async (email: string) => (await login(email)).token as string
  const [clientToken, freelancerToken] = [
    await token(accounts.client.email),
    await token(accounts.freelancer.email),
  ]
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)

  // No payment method yet: the page sends the freelancer to Payment Details.
  await freelancer.goto(`${shell().base}/payouts`)
  await expect(main(freelancer).getByTestId('payouts-form')).toContainText('Add a payment method first')
  await expect(main(freelancer).getByRole('link', { name: 'Go to Payment Details' })).toHaveAttribute(
    'href',
    '/peyment-details',
  )

  // Released money: 1,000.00 funded and approved, 900.00 after the platform fee (10 %).
  const { id: subcategoryId } = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const installments = [{ title: 'Calculations', amountMinor: 100000 }]
  const project = await api('POST', 'projects', clientToken, {
    title: 'Steel stair check',
    description: 'Check the steel stair of an office building and design its new landing.',
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor: 100000,
    currency: 'EUR',
    remote: true,
    installments,
    publish: true,
  })
  const proposal = await api('POST', `projects/${project.id}/proposal`, freelancerToken, {
    coverLetter: 'I design steel stairs and landings and can deliver the calculations in two weeks.',
    bidMinor: 100000,
    durationDays: 14,
    installments,
  })
  const contract = await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, clientToken)
  const installmentId = contract.installments[0].id as number
  await fundByApi(shell().base, clientToken, project.id, [installmentId])
  await api('POST', `projects/installments/${installmentId}/submit`, freelancerToken, {
    note: 'Calculations attached.',
  })
  await api('POST', `projects/installments/${installmentId}/approve`, clientToken, {})
  const account = await setUpPayouts(freelancer)
  await api('POST', 'freelancers/AddFreelancerPaymentMethod', freelancerToken, {
    kind: 'paypal',
    holderName: 'Fred Freelancer',
    email: failingPayoutDestinations.paypal,
  })

  const hub = jsEnabled()
    ? freelancer.waitForEvent('websocket', (ws) => ws.url().includes('/hubs/notifications'))
    : null
  await freelancer.goto(`${shell().base}/payouts`)
  const available = main(freelancer).getByTestId('payouts-available')
  await expect(available).toContainText('EUR€900.00')
  await expect(available).toContainText('The minimum payout is €20.00.')
  // The payout account, enabled first, is the default, and it is chosen.
  await expect(main(freelancer).getByLabel('Pay out to').locator('option:checked')).toHaveText(
    `Payout account · ${account} (default)`,
  )
  await expectNoAxeViolations(freelancer)

  // Under the minimum: the amount is named and nothing moves.
  await withdraw(freelancer, '5', /Payout account/)
  await expect(main(freelancer).getByTestId('payouts-form')).toContainText(
    'The amount is below the minimum payout.',
  )
  await expect(available).toContainText('EUR€900.00')
  if (hub) await liveUpdateDuringReply(hub, (await login(accounts.freelancer.email)).user.id)

  // To the payout account: paid at once.
  await withdraw(freelancer, '500', /Payout account/, `Withdraw €500.00 to Payout account · ${account}?`)
  await expect(freelancer).toHaveURL(/\/payouts$/)
  // The outcome is a flash notice; it stays on the page, also when the payout's live notification
  // reloads the page's data at once (decision 229).
  const outcome = freelancer.locator('.notices [data-notice]')
  await expect(outcome).toHaveText(`€500.00 was paid out to ${account}.`)
  await expect(freelancer.locator('.notices [role="status"]')).toContainText('was paid out')
  if (jsEnabled()) {
    await expect(freelancer.getByTestId('notification').filter({ hasText: 'Payout sent' })).toBeAttached()
    await settle(freelancer)
    await expect(outcome).toBeVisible()
  }
  await expect(main(freelancer).getByLabel('Amount')).toHaveValue('')
  await expect(available).toContainText('EUR€400.00')
  const history = main(freelancer).getByTestId('payout')
  await expect(history.first()).toContainText('€500.00')
  await expect(history.first().getByTestId('status-chip')).toHaveText('Paid')

  // To the sandbox's failing PayPal address: failed, and the money is back.
  await withdraw(freelancer, '150.50', /PayPal/, /^Withdraw €150\.50 to PayPal · p•••@example\.com\?$/)
  await expect(history.first().getByTestId('status-chip')).toHaveText('Failed')
  await expect(outcome).toHaveText(
    'The payout of €150.50 to p•••@example.com failed. The money is back in your available balance.',
  )
  await expect(freelancer.locator('.notices [role="alert"]')).toContainText('failed')
  await expect(available).toContainText('EUR€400.00')
  await expect(history.first()).toContainText('the money is back in your available balance')
  await expect(history).toHaveCount(2)
  await expectNoAxeViolations(freelancer)

  // The dashboard shows what is available and what was paid out.
  await freelancer.goto(`${shell().base}/dashboard`)
  const money = main(freelancer).getByTestId('dashboard-money')
  await expect(money).toContainText('Available€400.00')
  await expect(money).toContainText('Paid out€500.00')
  await money.getByRole('link', { name: 'Withdraw money' }).click()
  await expect(freelancer).toHaveURL(`${shell().base}/payouts`)

  // The statement tells each withdrawal once, in words: the paid one, the one that came back.
  await freelancer.goto(`${shell().base}/statements`)
  const moves = main(freelancer).getByTestId('movement')
  await expect(main(freelancer)).not.toContainText('Movement (')
  const out = moves.filter({ hasText: 'Withdrawal to your payout method' })
  await expect(out).toHaveCount(2)
  await expect(out.nth(0)).toContainText('Paid out')
  await expect(out.nth(0)).toContainText('-€500.00')
  await expect(out.nth(1)).toContainText('Not paid: back in your available balance')
  await expect(moves.filter({ hasText: 'Withdrawal returned' })).toContainText('+€150.50')
  await expect(moves.last().locator('td').last()).toHaveText('€400.00')
  await freelancer.context().close()
})
