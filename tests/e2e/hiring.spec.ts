import { expect, test } from '@playwright/test'
import { writeAccounts } from '../support/accounts.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { apiCall } from './contract-setup'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { submitAndWait } from './form-submit'
import { untilHydrated } from './settle'
import { fillOffer } from './offer-form'
import { confirmation, confirmIn, confirmStep } from './confirm'

// Hiring with Workneer's help end to end (issue 41 item 5, decision 338), JavaScript on
// (PostgreSQL) and off (SQLite): a client asks from Find Freelancers; support finds two freelancers
// by name and proposes them with a note each; the client sees both cards with the notes and hires
// one of them with a direct offer, which she accepts: the request ends in a contract. Support's
// closing and the client's cancelling act only from their confirmation steps (decision 310).
test.describe.configure({ timeout: 180_000 })
const shell = useShellServer()

test('a client asks for help hiring, support proposes two freelancers with notes, the client sees them', async ({
  browser,
}) => {
  const { base, db } = shell()
  const fiona = { email: `fiona.${Date.now()}@example.test`, firstName: 'Fiona', lastName: 'Framer' }
  await writeAccounts(db, [{ ...fiona, roles: [4], accountType: 'freelancer' }], SHELL_PASSWORD)
  for (const [email, title] of [
    [accounts.freelancer.email, 'Structural engineer'],
    [fiona.email, 'Timber roof specialist'],
  ]) {
    const { token } = await apiCall(base, 'POST', 'identity/login', null, { email, password: SHELL_PASSWORD })
    await apiCall(base, 'PUT', 'freelancers/profile/title-overview', token, {
      title,
      overview: 'Roofs, lofts and the beams that carry them, checked to the Eurocodes.',
    })
  }
  const deadline = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10)

  // The client asks from Find Freelancers.
  const client = await signInAs(browser, base, accounts.client.email)
  await client.goto(`${base}/freelancers`)
  if (jsEnabled()) await untilHydrated(client)
  await client.getByTestId('hiring-entry').getByRole('link', { name: 'Get help hiring' }).click()
  await expect(client.getByRole('heading', { level: 1, name: 'Ask for help hiring' })).toBeVisible()
  await client
    .getByLabel('What do you need?')
    .fill('An engineer to check a timber roof before a loft conversion.')
  await client.getByLabel('Budget, or the lowest amount').fill('500')
  await client.getByLabel('Highest amount (optional)').fill('900')
  await client.getByLabel('Hire by').fill(deadline)
  await expectNoAxeViolations(client)
  await client.getByRole('button', { name: 'Send request' }).click()
  await expect(client).toHaveURL(/\/hiring\/\d+$/)
  const requestPath = new URL(client.url()).pathname
  await expect(client.getByTestId('hiring-state')).toHaveText('Waiting')

  // Support finds each freelancer by name and proposes them, each with a note.
  const sam = await signInAs(browser, base, accounts.admin.email)
  await sam.goto(`${base}/admin/hiring`)
  await sam.getByTestId('hiring-request').first().getByRole('link').click()
  if (jsEnabled()) await untilHydrated(sam)
  for (const [name, note] of [
    ['Fred Freelancer', 'Close to the site, free next week'],
    ['Fiona Framer', 'Did three loft conversions this year'],
  ]) {
    const main = sam.locator('main')
    await main.getByLabel('Name', { exact: true }).fill(name.split(' ')[0])
    await main.getByRole('button', { name: 'Search', exact: true }).click()
    await expect(sam).toHaveURL(/q=/)
    await sam.getByLabel(`Propose ${name}`).check()
    await sam.getByLabel(`Note for the client about ${name}`).fill(note)
    await submitAndWait(sam, sam.getByRole('button', { name: 'Propose to the client' }), jsEnabled())
    await expect(sam.getByTestId('hiring-state')).toHaveText('Freelancers proposed')
  }
  await expect(sam.getByLabel('Propose Fred Freelancer')).toBeChecked()
  await expect(sam.getByLabel('Propose Fiona Framer')).toBeChecked()
  await expectNoAxeViolations(sam)
  await sam.context().close()

  // The client sees both, each with support's note; nothing scrolls sideways at 320 px.
  await client.goto(`${base}${requestPath}`)
  const proposed = client.getByTestId('hiring-proposed')
  await expect(proposed.locator('li.hit')).toHaveCount(2)
  await expect(proposed.locator('li.hit').filter({ hasText: 'Fred Freelancer' })).toContainText(
    'Close to the site, free next week',
  )
  await expect(proposed.locator('li.hit').filter({ hasText: 'Fiona Framer' })).toContainText(
    'Did three loft conversions this year',
  )
  await expectNoAxeViolations(client)
  await client.setViewportSize({ width: 320, height: 700 })
  expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)

  // The client hires Fiona from the list: an offer from her card, which she accepts (decision 342).
  await client.setViewportSize({ width: 1280, height: 800 })
  await proposed.getByRole('link', { name: 'Make Fiona Framer an offer' }).click()
  await expect(client).toHaveURL(/\/offers\/new\?freelancerId=\d+$/)
  const sub = await db.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const title = `Timber roof check ${Date.now().toString(36)}`
  const form = client.locator('#offer')
  await fillOffer(form, {
    title,
    description: 'Check the timber roof and its beams before the loft conversion, with a short report.',
    subcategoryId: sub.id,
    price: '800',
    days: '14',
    installments: [{ title: 'Survey and report', amount: '800' }],
  })
  await form.getByRole('button', { name: 'Send the offer' }).click()
  await expect(client.getByTestId('offer-state')).toHaveText('Waiting for an answer')
  const hired = await signInAs(browser, base, fiona.email)
  await hired.goto(`${base}/offers`)
  await hired.getByTestId('offer-card').filter({ hasText: title }).getByRole('link', { name: title }).click()
  if (jsEnabled()) await untilHydrated(hired)
  await hired.locator('main').getByRole('button', { name: 'Accept the offer' }).click()
  await expect(hired).toHaveURL(/\/projects\/freelancer\/contract\/\d+/)
  const contract = await db.db
    .selectFrom('contract')
    .innerJoin('app_user', 'app_user.id', 'contract.freelancer_id')
    .select(['contract.status', 'contract.amount_minor', 'app_user.email'])
    .where('contract.project_id', '=', Number(/contract\/(\d+)/.exec(hired.url())![1]))
    .executeTakeFirstOrThrow()
  expect(contract).toEqual({ status: 'active', amount_minor: 80000, email: fiona.email })
  await hired.context().close()

  // The client cancels another request from its step; the button alone only opens the step.
  const { token } = await apiCall(base, 'POST', 'identity/login', null, {
    email: accounts.client.email,
    password: SHELL_PASSWORD,
  })
  const other = await apiCall(base, 'POST', 'hiring/requests', token, {
    need: 'A surveyor for a boundary dispute with the neighbours.',
    budgetMinMinor: 30000,
    currency: 'EUR',
    deadline,
  })
  await client.goto(`${base}/hiring/${other.id}`)
  if (jsEnabled()) await untilHydrated(client)
  await confirmIn(client, 'Cancel request', `Cancel request #${other.id}?`)
  await expect(client.getByTestId('hiring-state')).toHaveText('Cancelled')
  await expect(client.getByText('The request is cancelled.')).toBeVisible()
  await client.context().close()

  // Support closes the first request from its step, with the reason typed inside it.
  const admin = await signInAs(browser, base, accounts.admin.email)
  await admin.goto(`${base}${requestPath.replace('/hiring/', '/admin/hiring/')}`)
  if (jsEnabled()) await untilHydrated(admin)
  const close = confirmation(admin.locator('main'), 'Close as done')
  await close.locator('summary').click()
  await close.getByLabel('Reason (optional)').fill('The client hired Fiona.')
  await expectNoAxeViolations(admin)
  await confirmStep(admin, /Close request #\d+ of .+ as done\?/, close)
  await expect(admin.getByTestId('hiring-state')).toHaveText('Done')
  await admin.context().close()
})
