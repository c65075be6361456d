import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { clickIn, hiredProject } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { settle } from './settle'
import { confirmIn, confirmStep } from './confirm'

// Issue 17 item 5 end to end, with JavaScript on and off (decisions 180–182): on a contract with two
// funded installments the client asks for all of the first back (the amount is prefilled), the
// freelancer accepts and the client sees the money returned; the client asks for part of the
// second, the freelancer declines with a reason and the client opens a dispute. Funding is done
// through the API here (payments.spec.ts covers the checkout's screens).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

const click = clickIn

test('a refund accepted returns the money to the client; a refund declined can be disputed', async ({
  browser,
}) => {
  const installments = [
    { title: 'Survey', amountMinor: 120000 },
    { title: 'Report', amountMinor: 60000 },
  ]
  const { clientToken, projectId, installmentIds } = await hiredProject(shell().base, shell().db, {
    title: `Retaining wall check ${test.info().project.name}`,
    description: 'Check a garden retaining wall that has started to lean and propose the repairs.',
    coverLetter: 'I survey retaining walls every month and can deliver both stages in two weeks.',
    durationDays: 14,
    installments,
  })
  await fundByApi(shell().base, clientToken, projectId, installmentIds)

  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  const details = `${shell().base}/projects/client/details/${projectId}`
  const contract = `${shell().base}/projects/freelancer/contract/${projectId}`
  await client.goto(details)
  await settle(client)

  // Installment 1: the form is folded behind "Ask for a refund", its amount typed (never filled in);
  // the confirmation names the amount and the freelancer. The freelancer sees the deadline and accepts.
  const first = main(client).getByTestId('refund-form-1')
  await expect(first.getByLabel('Amount (EUR)')).toBeHidden()
  await first.locator('summary', { hasText: 'Ask for a refund' }).click()
  await expect(first.getByLabel('Amount (EUR)')).toHaveValue('')
  await first.getByLabel('Amount (EUR)').fill('1200')
  await first.getByLabel('Why do you want a refund?').fill('The survey was not done on site.')
  await click(client, 'Review the request', first)
  await confirmStep(client, 'Ask Fred Freelancer to refund €1,200.00 for “Survey”?')
  await expect(main(client).getByTestId('refund-notice')).toContainText(
    'Your refund request was sent to the freelancer.',
  )
  await expect(main(client).getByTestId('refunds')).toContainText('Awaiting answer')
  await expectNoAxeViolations(client)

  await freelancer.goto(contract)
  await settle(freelancer)
  const asked = main(freelancer).getByTestId('refunds')
  await expect(asked).toContainText('Answer by')
  await expect(asked).toContainText('The survey was not done on site.')
  await expectNoAxeViolations(freelancer)
  await confirmIn(freelancer, 'Accept refund', 'Refund €1,200.00 to Clara Client?', asked)
  await expect(main(freelancer).getByTestId('refund-notice')).toContainText('You accepted the refund')
  await expect(main(freelancer).getByTestId('installment-1')).toContainText('Awaiting funding')

  await client.goto(details)
  await settle(client)
  // The money back: the installment's price and its 3 % service fee.
  await expect(main(client).getByTestId('refund-returned')).toHaveText('€1,236.00')
  await expect(main(client).getByTestId('refunds')).toContainText('Refunded')
  await expect(main(client).getByTestId('refunds')).toContainText('sent back to the card')

  // Installment 2: more than is held is refused under the amount, in words, not in minor units.
  const second = main(client).getByTestId('refund-form-2')
  await second.locator('summary', { hasText: 'Ask for a refund' }).click()
  await second.getByLabel('Amount (EUR)').fill('99999')
  await second.getByLabel('Why do you want a refund?').fill('Asking back too much.')
  await click(client, 'Review the request', second)
  const tooMuch = main(client).getByTestId('refund-form-2')
  await expect(tooMuch.locator('.field', { has: client.getByLabel('Amount (EUR)') })).toContainText(
    'That is more than is held for this installment',
  )
  await expect(main(client)).not.toContainText('9999900')
  // Then part of it; an empty reason is named first.
  await tooMuch.getByLabel('Why do you want a refund?').fill('')
  await tooMuch.getByLabel('Amount (EUR)').fill('150')
  await click(client, 'Review the request', second)
  await expect(main(client).getByTestId('refund-form-2')).toContainText(
    'Tell the freelancer why you want a refund.',
  )
  await main(client)
    .getByTestId('refund-form-2')
    .getByLabel('Why do you want a refund?')
    .fill('The report is missing the drainage section.')
  await click(client, 'Review the request', main(client).getByTestId('refund-form-2'))
  await confirmStep(client, /^Ask Fred Freelancer to refund €150\.00 for /)
  await expect(main(client).getByTestId('refund-notice')).toBeVisible()

  await freelancer.goto(contract)
  await settle(freelancer)
  const open = main(freelancer)
    .getByTestId('refunds')
    .locator('[data-testid^="refund-"]', { hasText: 'Awaiting answer' })
  await open.getByLabel('Reason for declining').fill('The drainage section is on page 4.')
  await click(freelancer, 'Decline', open)
  await expect(main(freelancer).getByTestId('refund-notice')).toContainText(
    'You declined the refund request.',
  )

  await client.goto(details)
  await settle(client)
  await expect(main(client).getByTestId('refunds')).toContainText('The drainage section is on page 4.')
  await confirmIn(
    client,
    'Open a dispute',
    'Open a dispute about the refund of €150.00?',
    main(client).getByTestId('refunds'),
  )
  await expect(main(client).getByTestId('refund-notice')).toContainText('You opened a dispute.')
  await expect(main(client).getByTestId('refunds')).toContainText('In dispute')
  // The activity feed names who took each step (the client funded, not the gateway), the amount
  // asked as money and the freelancer's own words (issue 39 items 4 and 7).
  const activity = main(client).getByRole('region', { name: 'Activity' })
  await expect(activity).toContainText('Clara Client funded an installment')
  await expect(activity).toContainText('Clara Client asked for a refund — €150.00')
  await expect(activity).toContainText(
    'Fred Freelancer declined the refund — The drainage section is on page 4.',
  )
  await expect(activity).toContainText('Clara Client opened a dispute over the refund')
  await expect(activity).toContainText('Fred Freelancer accepted the refund')
  await client.context().close()
  await freelancer.context().close()
})
