import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { apiCall, clickIn, hiredProject } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { payInCheckout, testCards } from './checkout'
import { settle } from './settle'
import { confirmIn } from './confirm'

// Issue 17, first half, end to end with JavaScript on and off: the client funds two installments
// in the sandbox checkout (one at once; one declined, then paid with the card that asks for a
// confirmation), sees amount, fee and total before paying; the freelancer submits, the client
// approves, and the freelancer's dashboard shows the money available less the platform fee.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  apiCall(shell().base, method, path, token, body)
const click = clickIn

test('a client funds two installments in the sandbox checkout; approval makes the money available to the freelancer', async ({
  browser,
}) => {
  const installments = [
    { title: 'Calculations', amountMinor: 120000 },
    { title: 'Drawings', amountMinor: 60000 },
  ]
  const { freelancerToken, projectId } = await hiredProject(shell().base, shell().db, {
    title: `Roof truss check ${test.info().project.name}`,
    description: 'Check the timber roof trusses of a barn conversion and design the repairs.',
    coverLetter: 'I check timber trusses every week and can deliver both stages in three weeks.',
    durationDays: 21,
    installments,
  })
  const project = { id: projectId }
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  const before = await api('GET', 'Payment/balances', freelancerToken)
  const availableBefore =
    before.data.find((b: { currency: string }) => b.currency === 'EUR')?.availableMinor ?? 0

  const client = await signInAs(browser, shell().base, accounts.client.email)
  const details = `${shell().base}/projects/client/details/${project.id}`
  await client.goto(details)
  await settle(client)

  // Installment 1: the pay page shows amount, fee (3 %) and total; the card that succeeds funds it.
  await click(client, 'Fund', main(client).getByTestId('installment-1'))
  await expect(client).toHaveURL(new RegExp(`/projects/client/pay/${project.id}\\?installment=`))
  const summary = main(client).getByTestId('pay-summary')
  await expect(summary).toContainText('Amount€1,200.00')
  await expect(summary).toContainText('Service fee (3 %)€36.00')
  await expect(summary).toContainText('Total€1,236.00')
  // The pay page is the confirmation step: the total and whom the money is held for (decision 310).
  await expect(summary.getByTestId('confirm-step')).toContainText(
    'Pay €1,236.00 now? Workneer holds it for Fred Freelancer',
  )
  await expectNoAxeViolations(client)
  await main(client).getByRole('button', { name: 'Pay €1,236.00' }).click()
  await client.waitForURL(/\/checkout\//)
  await settle(client)
  await expect(main(client).getByTestId('checkout-total')).toHaveText('€1,236.00')
  await expectNoAxeViolations(client)
  // A wrong card number is named and nothing is charged.
  await payInCheckout(client, '4242 4242 4242 4241', { fromPayPage: false })
  await expect(main(client)).toContainText('Enter a valid card number.')
  await payInCheckout(client, testCards.succeeds, { fromPayPage: false })
  await expect(client).toHaveURL(`${details}?paid=1`)
  await expect(main(client).getByTestId('paid-notice')).toBeVisible()
  await expect(main(client).getByTestId('installment-1')).toContainText('Funded')

  // Installment 2: declined, then the card that asks for a confirmation, confirmed.
  await click(client, 'Fund', main(client).getByTestId('installment-2'))
  await payInCheckout(client, testCards.declined)
  await expect(main(client).getByTestId('checkout-declined')).toContainText(
    'The payment was declined: the card was declined.',
  )
  await expect(main(client).getByTestId('checkout-total')).toHaveText('€618.00')
  await payInCheckout(client, testCards.confirm, { fromPayPage: false })
  await expect(main(client)).toContainText('Your bank asks you to confirm the payment of €618.00.')
  await expectNoAxeViolations(client)
  await click(client, 'Confirm the payment')
  await expect(client).toHaveURL(`${details}?paid=1`)
  await expect(main(client).getByTestId('installment-2')).toContainText('Funded')

  // The client's dashboard shows the money held for the contract.
  await client.goto(`${shell().base}/dashboard`)
  await expect(main(client).getByTestId('dashboard-money')).toContainText('Held for your contracts')

  // The freelancer submits installment 1; the client approves it.
  await freelancer.goto(`${shell().base}/projects/freelancer/contract/${project.id}`)
  await settle(freelancer)
  const item = main(freelancer).getByTestId('installment-1')
  await item.getByLabel('What you deliver').fill('Truss calculations attached.')
  await click(freelancer, 'Submit work', item)
  await expect(main(freelancer).getByTestId('installment-1')).toContainText('Submitted')
  await client.goto(details)
  await settle(client)
  // Approving asks first, naming the amount and the freelancer; then a notice and a receipt.
  await confirmIn(
    client,
    'Approve',
    'Release €1,200.00 to Fred Freelancer?',
    main(client).getByTestId('installment-1'),
  )
  await expect(client.locator('.notices')).toContainText('€1,200.00 released to Fred Freelancer.')
  await expect(main(client).getByTestId('installment-1')).toContainText('Released')
  await expect(main(client).getByTestId('timeline')).toContainText('paid out an installment')

  // The freelancer's available balance has the installment less the platform fee (10 %).
  const expected = availableBefore + 108000
  await freelancer.goto(`${shell().base}/dashboard`)
  const money = main(freelancer).getByTestId('dashboard-money')
  await expect(money).toContainText(
    `Available€${(expected / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
  )
  await expectNoAxeViolations(freelancer)
  await client.context().close()
  await freelancer.context().close()
})
