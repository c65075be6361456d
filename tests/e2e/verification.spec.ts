import { expect, test, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { shellApi } from './shell-api'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'

// Verified identity (issue 42 item 4, decision 332), JavaScript on and off: a freelancer sends an
// identity document, a SuperAdmin opens it from the queue and approves it, and the Verified badge
// shows on the freelancer's public profile and in Find Freelancers, whose "Verified only" keeps them.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

test('a freelancer asks, an admin approves, and the badge shows on the profile and in search', async ({
  browser,
}) => {
  const base = shell().base
  const api = shellApi(() => base)
  // A titled profile is listed in Find Freelancers.
  await api.call('PUT', 'freelancers/profile/title', await api.login(accounts.freelancer.email), {
    title: 'Bridge engineer',
  })
  const fred = await shell()
    .db.db.selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.freelancer.email)
    .executeTakeFirstOrThrow()

  const free = await signInAs(browser, base, accounts.freelancer.email)
  await free.goto(`${base}/profile/verification`)
  await expect(main(free).getByTestId('verification-state')).toHaveText('Not verified')
  await expectNoAxeViolations(free)
  await main(free).getByLabel('Identity document (passport or ID card)').check()
  await main(free)
    .getByLabel('File')
    .setInputFiles({ name: 'passport.pdf', mimeType: 'application/pdf', buffer: PDF })
  await main(free).getByRole('button', { name: 'Ask to be verified' }).click()
  await expect(main(free).getByTestId('verification-state')).toHaveText('Waiting for review')

  const admin = await signInAs(browser, base, accounts.admin.email)
  await admin.goto(`${base}/admin/verifications`)
  const request = main(admin).getByTestId('verification-request').filter({ hasText: 'Fred Freelancer' })
  const link = request.getByRole('link', { name: 'Open the document: passport.pdf' })
  const document = await admin.request.get(new URL((await link.getAttribute('href'))!, base).href)
  expect([document.status(), document.headers()['content-type']]).toEqual([200, 'application/pdf'])
  expect(Buffer.from(await document.body()).equals(PDF)).toBe(true)
  await expectNoAxeViolations(admin)
  await request.getByText('Approve', { exact: true }).click()
  await request.getByRole('button', { name: 'Yes, approve' }).click()
  await expect(admin.getByText('Fred Freelancer is verified.')).toBeVisible()
  await expect(main(admin).getByText('No request is waiting.')).toBeVisible()

  await free.reload()
  await expect(main(free).getByTestId('verification-state')).toHaveText('Verified')

  const client = await signInAs(browser, base, accounts.client.email)
  await client.goto(`${base}/profiles/freelancers/${fred.id}`)
  await expect(main(client).getByTestId('verified-badge')).toHaveText('Verified')
  await client.goto(`${base}/freelancers?verified=on`)
  await expect(main(client).getByLabel('Verified only')).toBeChecked()
  const hit = main(client).locator('li.hit').filter({ hasText: 'Fred Freelancer' })
  await expect(hit.getByTestId('verified-badge')).toHaveText('Verified')
  await expect(main(client).locator('li.hit')).toHaveCount(1)
  for (const page of [free, admin, client]) await page.context().close()
})
