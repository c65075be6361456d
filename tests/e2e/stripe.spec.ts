import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { submitAndWait } from './form-submit'
import { confirmStep } from './confirm'
import { startStripeStandIn, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET } from '../support/stripe-stand-in'
import { jsEnabled } from './project-js'

// Stripe end to end (decisions 195 and 196), with JavaScript on and off, on a server whose Stripe
// keys are set. Stripe cannot be reached from here: its API and hosted checkout are a stand-in on
// loopback (tests/support/stripe-stand-in.ts, a mock of what cannot run here) whose Pay button
// sends a webhook signed with the stripe package's test helper, as Stripe does. The client pays an
// installment and is sent to Stripe's page, not the sandbox's; the webhook funds it. A freelancer
// adds a Stripe connected account in Payment Details.
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

test('a freelancer adds a Stripe connected account in Payment Details, checked and shown masked', async ({
  browser,
}) => {
  const page = await signInAs(browser, shell().base, accounts.freelancer.email)
  await page.goto(`${shell().base}/peyment-details`)
  const form = page.locator('#form-stripe')
  await form.getByLabel('Account holder').fill('Fred Freelancer')
  await form.getByLabel('Stripe account ID').fill('1Nv0FGQ9RKHgCVdK')
  // Refused in the browser with JavaScript, by the server without: the same message, nothing added.
  await form.getByRole('button', { name: 'Add' }).click()
  await expect(
    page
      .locator('#form-stripe')
      .getByText('Enter a Stripe account ID: acct_ followed by letters and digits.'),
  ).toBeVisible()
  await page.locator('#form-stripe').getByLabel('Stripe account ID').fill('acct_1Qm7TzLb4WcR8pHs')
  await submitAndWait(page, page.locator('#form-stripe').getByRole('button', { name: 'Add' }), jsEnabled())
  await confirmStep(page, 'Send your payouts to Stripe · acct_•••• 8pHs (Fred Freelancer)?')
  const method = page.getByTestId('payment-method').filter({ hasText: 'Stripe account' })
  await expect(method).toContainText('acct_••••8pHs')
  await expect(method).toContainText('Default')
  await expect(page.getByTestId('payment-method')).toHaveCount(1)
  await expect(main(page)).not.toContainText('acct_1Qm7TzLb4WcR8pHs')
  await expectNoAxeViolations(page)
})
