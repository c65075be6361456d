import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { startStripeStandIn, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET } from '../support/stripe-stand-in'

// Stripe end to end (decisions 195, 196 and 333), with JavaScript on and off, on a server whose Stripe
// keys are set. Stripe cannot be reached from here: its API and hosted checkout are a stand-in on
// loopback (tests/support/stripe-stand-in.ts, a mock of what cannot run here) whose Pay button
// sends a webhook signed with the stripe package's test helper, as Stripe does. The client pays an
// installment and is sent to Stripe's page, not the sandbox's; the webhook funds it. A freelancer
// sets up payouts through Stripe's hosted onboarding (decision 333).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
let stripe: Awaited<ReturnType<typeof startStripeStandIn>>
test.beforeAll(async () => {
  stripe = await startStripeStandIn({
    webhookUrl: () => `${shell().base}/api/v1/Payment/PaymentCallback?gateway=stripe`,
  })
})
const shell = useShellServer(() => ({
  STRIPE_SECRET_KEY: STAND_IN_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
  STRIPE_API_URL: stripe.base,
}))
test.afterAll(async () => {
  await stripe?.stop()
})
const main = (page: Page) => page.locator('main')

async function api(method: string, path: string, token: string | null, body?: unknown) {
  const r = await fetch(`${shell().base}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r.json()
}

test('a client pays an installment at Stripe Checkout; the signed webhook funds it', async ({ browser }) => {
  const token = async (email: string) =>
    (await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
  const [clientToken, freelancerToken] = [
    await token(accounts.client.email),
    await token(accounts.freelancer.email),
  ]
  const { id: subcategoryId } = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const installments = [{ title: 'Calculations', amountMinor: 40000 }]
  const project = await api('POST', 'projects', clientToken, {
    title: `Stair stringer check ${test.info().project.name}`,
    description: 'Check the steel stringers of an external staircase and the fixings to the wall.',
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor: 40000,
    currency: 'EUR',
    remote: true,
    installments,
    publish: true,
  })
  const proposal = await api('POST', `projects/${project.id}/proposal`, freelancerToken, {
    coverLetter: 'I check steel stairs often and can deliver the calculation within two weeks.',
    bidMinor: 40000,
    durationDays: 14,
    installments,
  })
  await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, clientToken)

  const client = await signInAs(browser, shell().base, accounts.client.email)
  const details = `${shell().base}/projects/client/details/${project.id}`
  await client.goto(details)
  await main(client).getByTestId('installment-1').getByRole('button', { name: 'Fund' }).click()
  await main(client).getByRole('button', { name: 'Pay €412.00' }).click()
  // Stripe's page (the stand-in's), not the sandbox's card form: the amount is the contract's total.
  await client.waitForURL(`${stripe.base}/pay/**`)
  await expect(client.getByRole('heading', { name: 'Pay EUR 412.00' })).toBeVisible()
  await client.getByRole('button', { name: 'Pay' }).click()
  await client.waitForURL(details)
  await expect(main(client).getByTestId('installment-1')).toContainText('Funded')
  expect(
    stripe.sent
      .filter((s) => s.path === '/v1/checkout/sessions')
      .map((s) => s.form.get('line_items[0][price_data][unit_amount]')),
  ).toContain('41200')
})

test('a freelancer sets up payouts at Stripe: back unfinished it is incomplete; finished, the signed webhook enables it', async ({
  browser,
}) => {
  const page = await signInAs(browser, shell().base, accounts.freelancer.email)
  await page.goto(`${shell().base}/peyment-details`)
  const card = main(page).getByTestId('payout-account')
  await expect(card.getByTestId('payout-account-status')).toHaveText('Not set up')
  await expect(card).toContainText('Workneer pays you through Stripe.')
  // No account id is typed in any more: Stripe opens the account and hosts the form.
  await expect(main(page)).not.toContainText('Stripe account ID')
  await card.getByRole('button', { name: 'Set up payouts' }).click()
  await expect(page).toHaveURL(new RegExp(`^${stripe.base}/setup/acctlink_\\d+$`))
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(page).toHaveURL(`${shell().base}/peyment-details?onboarding=return`)
  await expect(card.getByTestId('payout-account-status')).toHaveText('Incomplete')
  await card.getByRole('button', { name: 'Continue setup' }).click()
  await page.getByRole('button', { name: 'Finish' }).click()
  await expect(page).toHaveURL(`${shell().base}/peyment-details?onboarding=return`)
  await expect(card.getByTestId('payout-account-status')).toHaveText('Enabled')
  await expect(card).toContainText('acct_••••0001')
  expect(stripe.sent.filter((r) => r.path === '/v1/accounts')).toHaveLength(1)
  await expectNoAxeViolations(page)
})
