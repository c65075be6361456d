import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { clickIn as click } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { settle } from './settle'

// Issue 40 item 3 end to end, with JavaScript on and off (decision 323): a client posts an hourly
// project with a range of rates and hours a week (a range upside down is named on its field), a
// freelancer proposes a rate and hours a week without installments, the client accepts, and both
// read the hourly terms on the contract, which takes no change orders.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const go = async (page: Page, url: string) => {
  await page.goto(`${shell().base}${url}`)
  await settle(page)
}

test('an hourly project, a proposal of a rate and hours, and the contract billed by the hour', async ({
  browser,
}) => {
  const word = `scaffold${Date.now().toString(36)}`
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)

  // The client posts an hourly project: choosing the type shows its fields and hides the
  // installment plan, with or without JavaScript (the stylesheet does it); the budget is the highest rate.
  await go(client, '/projects/create')
  const form = main(client).locator('form#project')
  await form.getByLabel('Title', { exact: true }).fill(`Weekly ${word} inspections`)
  await form
    .getByLabel('Description')
    .fill(`Inspect the ${word} of a six-storey facade every week and sign the handover sheets.`)
  await form.getByLabel('Subcategory').selectOption({ label: 'Structural Engineering' })
  await expect(form.getByRole('group', { name: 'Hourly work' })).toBeHidden()
  await expect(form.getByLabel('Installment 1')).toBeVisible()
  await form.getByLabel('Hourly', { exact: true }).check()
  await expect(form.getByLabel('Installment 1')).toBeHidden()
  await expect(form.getByRole('group', { name: 'Hourly work' })).toBeVisible()
  await form.getByLabel('Budget', { exact: true }).fill('60')
  await form.getByLabel('Lowest hourly rate').fill('70')
  await form.getByLabel('Hours a week').fill('20')
  await click(client, 'Publish project')
  await expect(main(client).getByText('The lowest rate cannot be above the highest.')).toBeVisible()
  await expectNoAxeViolations(client)
  await main(client).locator('form#project').getByLabel('Lowest hourly rate').fill('40')
  await click(client, 'Publish project')
  await expect(main(client).getByText('Your project is published.')).toBeVisible()
  await expect(main(client).getByTestId('project-budget')).toHaveText('€40.00–€60.00 / hour · 20 h a week')
  const projectId = client.url().split('?')[0].split('/').pop()

  // The freelancer finds it with its range and proposes a rate and hours a week, no installments.
  await go(freelancer, `/projects/getprojects?search=${word}`)
  await expect(main(freelancer).getByTestId('project-card').filter({ hasText: word })).toContainText(
    '€40.00–€60.00 / hour · 20 h a week',
  )
  await go(freelancer, `/projects/details/${projectId}`)
  await expect(main(freelancer).getByTestId('project-budget')).toHaveText(
    '€40.00–€60.00 / hour · 20 h a week',
  )
  await expect(main(freelancer).getByLabel('Installment 1')).toHaveCount(0)
  await main(freelancer)
    .getByLabel('Cover letter')
    .fill('I inspect facade scaffolds every week and write the handover sheets the same day.')
  await main(freelancer).getByLabel('Hourly rate (EUR)').fill('45')
  await expect(main(freelancer).getByLabel('Hours a week you offer')).toHaveValue('20')
  await main(freelancer).getByLabel('Hours a week you offer').fill('81')
  await main(freelancer).getByLabel('Duration in days').fill('90')
  await click(freelancer, 'Send proposal')
  await expect(main(freelancer).getByText('Enter a number of hours from 1 to 80.')).toBeVisible()
  await main(freelancer).getByLabel('Hours a week you offer').fill('16')
  await click(freelancer, 'Send proposal')
  await expect(main(freelancer).getByTestId('sent-notice')).toContainText('Your proposal is sent.')
  await expect(main(freelancer).getByTestId('hourly-bid')).toHaveText('€45.00 / hour, up to 16 h a week')
  await expectNoAxeViolations(freelancer)
  await go(freelancer, '/projects/freelancer/porposals')
  await expect(main(freelancer).getByTestId('my-proposal').filter({ hasText: word })).toContainText(
    '€45.00 / hour, up to 16 h a week',
  )

  // The client reads the bid and accepts: the contract is billed by the hour, with no installments.
  await go(client, `/projects/client/details/${projectId}`)
  const proposal = main(client).getByTestId('proposal').first()
  await expect(proposal).toContainText('€45.00 / hour, up to 16 h a week')
  await click(client, 'Accept', proposal)
  await expect(main(client).getByTestId('accepted-notice')).toHaveText(
    'Proposal accepted: the contract has started. The freelancer logs hours each week, and you approve them before they are charged.',
  )
  const terms = main(client).getByTestId('hourly-terms')
  await expect(terms).toContainText('By the hour')
  await expect(terms).toContainText('€45.00')
  await expect(terms).toContainText('up to 16 h a week')
  await expect(main(client).getByTestId('installment-1')).toHaveCount(0)
  await expect(main(client).getByTestId('contract-value')).toHaveCount(0)
  // Nothing is held on an hourly contract, so the client may still cancel it.
  await expect(main(client).locator('summary', { hasText: 'Cancel project' })).toBeVisible()
  await expectNoAxeViolations(client)

  // The freelancer's contract page says the same; change orders are not offered.
  await go(freelancer, `/projects/freelancer/contract/${projectId}`)
  const own = main(freelancer).getByTestId('hourly-terms')
  await expect(own).toContainText('By the hour')
  await expect(own).toContainText('€45.00')
  await expect(own).toContainText('up to 16 h a week')
  await expect(main(freelancer).getByRole('heading', { name: 'Installments' })).toHaveCount(0)
  await expectNoAxeViolations(freelancer)
  await go(freelancer, '/projects/freelancer')
  await expect(main(freelancer).getByTestId('contract').filter({ hasText: word })).toContainText(
    'up to 16 h a week',
  )
  await go(freelancer, `/projects/changes/${projectId}`)
  await expect(main(freelancer)).toContainText(
    'This contract is paid by the hour: it takes no change orders.',
  )
  await expect(main(freelancer).locator('form#propose')).toHaveCount(0)
  await client.context().close()
  await freelancer.context().close()
})
