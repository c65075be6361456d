import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { apiCall, clickIn as click } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { payInCheckout } from './checkout'
import { settle } from './settle'
import { confirmIn } from './confirm'

// Issue 40 item 3 end to end, with JavaScript on and off (decision 324): on an hourly contract the
// freelancer logs last week's time (the weekly limit is named when it would be passed) and submits
// the week; the client approves it from its confirmation step, pays the week's installment in the
// sandbox checkout, and the money is released: the freelancer's statement shows the week. A second
// week (set up through the API) is disputed: both parties' timesheet shows the dispute and its
// reason, the client's project page says why it cannot be completed yet, and the freelancer's
// dashboard shows the hourly terms and the move waiting on them (decision 334).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

const tokens = async () => {
  const login = async (email: string) =>
    (await apiCall(shell().base, 'POST', 'identity/login', null, { email, password: SHELL_PASSWORD }))
      .token as string
  return {
    clientToken: await login(accounts.client.email),
    freelancerToken: await login(accounts.freelancer.email),
  }
}

/** The Monday `weeks` weeks back (UTC; last week's by default), as a date input takes it. */
function lastMonday(weeks = 1) {
  const today = new Date()
  const back = ((today.getUTCDay() + 6) % 7) + 7 * weeks
  return new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10)
}

test('the freelancer logs and submits a week; the client approves and pays it; the freelancer is paid; a second week is disputed', async ({
  browser,
}) => {
  // An hourly project at €80 an hour, a proposal of that rate for 10 hours a week, accepted; the
  // contract is moved back four weeks so last week's time can be logged.
  const { clientToken, freelancerToken } = await tokens()
  const { id: subcategoryId } = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await apiCall(shell().base, 'POST', 'projects', clientToken, {
    title: `Site supervision by the hour ${test.info().project.name}`,
    description:
      'Supervise the steel erection of a warehouse on site, a few hours a week, and report each visit.',
    subcategoryId,
    budgetType: 'hourly',
    budgetMinMinor: 7000,
    budgetMinor: 9000,
    hoursPerWeek: 10,
    currency: 'EUR',
    remote: true,
    publish: true,
  })
  const projectId = project.id as number
  const proposal = await apiCall(shell().base, 'POST', `projects/${projectId}/proposal`, freelancerToken, {
    coverLetter: 'I supervise steel erection on site every week and write a short report after each visit.',
    bidMinor: 8000,
    durationDays: 30,
    weeklyHours: 10,
  })
  await apiCall(shell().base, 'POST', `projects/proposals/${proposal.id}/accept/${projectId}`, clientToken)
  await shell()
    .db.db.updateTable('contract')
    .set({ created_at: new Date(Date.now() - 28 * 86_400_000).toISOString() })
    .where('project_id', '=', projectId)
    .execute()
  const week = lastMonday()
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)

  // The freelancer finds the timesheet from the contract page and logs last week's time.
  await freelancer.goto(`${shell().base}/projects/freelancer/contract/${projectId}`)
  await settle(freelancer)
  await main(freelancer).getByTestId('timesheet-link').click()
  await settle(freelancer)
  await main(freelancer).getByRole('link', { name: 'Previous week' }).click()
  await settle(freelancer)
  const log = async (date: string, hours: string, description: string) => {
    const form = main(freelancer).locator('form#entry')
    await form.getByLabel('Date').fill(date)
    await form.getByLabel('Hours').fill(hours)
    await form.getByLabel('What you did').fill(description)
    await click(freelancer, 'Log time', form)
  }
  await log(week, '7.5', 'Checked the column bases and the anchor bolts.')
  await expect(main(freelancer).getByTestId('timesheet-notice')).toContainText('Time logged.')
  await log(week, '3', 'Bracing inspection.')
  await expect(main(freelancer).locator('form#entry')).toContainText(
    'This week would go over the contract’s limit of 10 hours a week.',
  )
  await log(week, '2.5', 'Bracing inspection.')
  const card = main(freelancer).getByTestId('week')
  await expect(card.getByTestId('entry')).toHaveCount(2)
  await expect(card).toContainText('10 h of 10 h')
  await expect(card).toContainText('€800.00')
  await expectNoAxeViolations(freelancer)
  await click(freelancer, 'Submit the week', card)
  await expect(main(freelancer).getByTestId('timesheet-notice')).toContainText('Week submitted')
  await expect(main(freelancer).getByTestId('week-status').first()).toHaveText('Submitted')
  await expect(main(freelancer).locator('form#entry')).toHaveCount(0)

  // The client approves from the step that names what the week costs, then pays it.
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await settle(client)
  await main(client).getByTestId('timesheet-link').click()
  await settle(client)
  await client.goto(`${shell().base}/projects/timesheets/${projectId}?week=${week}`)
  await settle(client)
  await expect(main(client).getByTestId('week')).toContainText('€824.00')
  await expectNoAxeViolations(client)
  await confirmIn(
    client,
    'Approve the week',
    'Approve 10 h for €800.00? With the service fee you pay €824.00',
  )
  await expect(main(client).getByTestId('timesheet-notice')).toContainText('Week approved.')
  await expect(main(client).getByTestId('week-status').first()).toHaveText('Approved')
  await main(client).getByRole('link', { name: 'Pay this week' }).click()
  await settle(client)
  await payInCheckout(client)
  // A client-side submit does not reset the load state: the landing page's notice says it is paid.
  await expect(main(client)).toContainText('Payment received')
  await client.goto(`${shell().base}/projects/timesheets/${projectId}?week=${week}`)
  await settle(client)
  await expect(main(client).getByTestId('past-week').first()).toContainText('Paid to the freelancer')

  // The freelancer was paid the week, less the platform fee: the statement shows it.
  await freelancer.goto(`${shell().base}/statements`)
  await settle(freelancer)
  const row = main(freelancer).getByTestId('movement').filter({ hasText: 'Week of' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('+€720.00')

  // The week before is logged, submitted and disputed through the API; both sides see the reason.
  const earlier = lastMonday(2)
  const sheet = `projects/${projectId}/timesheets`
  const logged = await apiCall(shell().base, 'POST', `${sheet}/entries`, freelancerToken, {
    date: earlier,
    hours: 4,
    description: 'Site visit and report.',
  })
  const weekId = logged.week.id as number
  await apiCall(shell().base, 'POST', `${sheet}/weeks/${weekId}/submit`, freelancerToken)
  const reason = 'The report of this visit is missing.'
  await apiCall(shell().base, 'POST', `${sheet}/weeks/${weekId}/dispute`, clientToken, { reason })
  for (const page of [freelancer, client]) {
    await page.goto(`${shell().base}/projects/timesheets/${projectId}?week=${earlier}`)
    await expect(main(page).getByTestId('week-status').first()).toHaveText('Disputed')
    await expect(main(page).getByTestId('week')).toContainText(`The client disputed this week: ${reason}`)
  }
  // The client's project page explains why it cannot be completed yet, instead of the button.
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await expect(main(client).getByTestId('open-week')).toContainText('You disputed the week of')
  await expect(main(client).getByRole('button', { name: 'Mark as completed' })).toHaveCount(0)
  await expectNoAxeViolations(client)
  // The freelancer's dashboard shows the hourly terms and the correction waiting on them.
  await freelancer.goto(`${shell().base}/dashboard`)
  const contract = main(freelancer).getByTestId('dash-contract').filter({ hasText: project.title })
  await expect(contract.getByTestId('dash-hourly')).toContainText('€80.00 an hour')
  await expect(contract).toContainText('Your move: correct the week of')
  await expectNoAxeViolations(freelancer)

  // Both parties' timesheet fits a 320 px phone in every language, with no sideways scroll.
  for (const page of [freelancer, client]) {
    await page.setViewportSize({ width: 320, height: 740 })
    for (const lang of ['en', 'es', 'de', 'it', 'ru']) {
      await page.context().addCookies([{ name: 'lang', value: lang, url: shell().base }])
      await page.goto(`${shell().base}/projects/timesheets/${projectId}?week=${week}`)
      const extra = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      expect(extra, `${lang} at 320 px`).toBeLessThanOrEqual(0)
    }
  }
  await client.context().close()
  await freelancer.context().close()
})
