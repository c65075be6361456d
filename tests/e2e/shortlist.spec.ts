import { expect, test } from '@playwright/test'
import { writeAccounts } from '../support/accounts.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { apiCall } from './contract-setup'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { submitAndWait } from './form-submit'
import { untilHydrated } from './settle'

// Saved freelancers and the shortlist end to end (issue 41 item 4, decision 336), JavaScript on
// (PostgreSQL) and off (SQLite): a client saves a freelancer from their profile and finds them on
// the saved list; on their project page they shortlist two proposals, write a private note, show the
// shortlist only, compare the two side by side (nothing scrolls sideways at 320 px) and accept one.
test.describe.configure({ timeout: 180_000 })
const shell = useShellServer()

test('a client saves a freelancer, shortlists two proposals with a note, compares them and accepts one', async ({
  browser,
}) => {
  const base = shell().base
  const db = shell().db
  const tokenOf = async (email: string) =>
    (await apiCall(base, 'POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
  const fiona = { email: `fiona.${Date.now()}@example.test`, firstName: 'Fiona', lastName: 'Second' }
  await writeAccounts(db, [{ ...fiona, roles: [4], accountType: 'freelancer' }], SHELL_PASSWORD)
  const [client, fred, second] = await Promise.all(
    [accounts.client.email, accounts.freelancer.email, fiona.email].map(tokenOf),
  )
  await apiCall(base, 'PUT', 'freelancers/profile/title-overview', fred, {
    title: 'Structural engineer',
    overview: 'Foundations and retaining walls, designed to the Eurocodes.',
  })
  const { id: subcategoryId } = await db.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await apiCall(base, 'POST', 'projects', client, {
    title: 'Shortlist: underpinning a terrace',
    description: 'Underpinning design for a Victorian terrace with a cracked party wall, with drawings.',
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor: 90000,
    currency: 'EUR',
    durationDays: 20,
    remote: true,
    publish: true,
  })
  for (const [token, bidMinor] of [
    [fred, 85000],
    [second, 80000],
  ] as const)
    await apiCall(base, 'POST', `projects/${project.id}/proposal`, token, {
      coverLetter: 'I design underpinning every month and will visit the site in the first week.',
      bidMinor,
      durationDays: 14,
    })

  // Saved from the freelancer's public profile; Find Freelancers and the saved list (in the client's menu) shows them.
  const page = await signInAs(browser, base, accounts.client.email)
  const fredId = (
    await db.db
      .selectFrom('app_user')
      .select('id')
      .where('email', '=', accounts.freelancer.email)
      .executeTakeFirstOrThrow()
  ).id
  await page.goto(`${base}/profiles/freelancers/${fredId}`)
  if (jsEnabled()) await untilHydrated(page)
  await submitAndWait(
    page,
    page.locator('main').getByRole('button', { name: 'Save', exact: true }),
    jsEnabled(),
  )
  await expect(page.locator('main').getByRole('button', { name: 'Saved ✓ — remove' })).toBeVisible()
  // Find Freelancers' card says so too.
  await page.goto(`${base}/freelancers/freelancersearch?search=Fred`)
  const card = page.locator('main li.hit').filter({ hasText: 'Fred Freelancer' })
  await expect(card.getByRole('button', { name: 'Saved ✓ — remove' })).toBeVisible()
  await page.goto(`${base}/freelancers/saved`)
  await expect(
    page.getByTestId('saved-freelancers').getByRole('link', { name: 'Fred Freelancer', exact: true }),
  ).toBeVisible()
  await expectNoAxeViolations(page)

  // Both proposals shortlisted, a private note on Fred's, then the shortlist alone.
  await page.goto(`${base}/projects/client/details/${project.id}`)
  if (jsEnabled()) await untilHydrated(page)
  const proposal = (name: string) => page.getByTestId('proposal').filter({ hasText: name })
  for (const name of ['Fred Freelancer', 'Fiona Second']) {
    await submitAndWait(
      page,
      proposal(name).getByRole('button', { name: 'Shortlist', exact: true }),
      jsEnabled(),
    )
    await expect(proposal(name).getByTestId('shortlisted')).toBeVisible()
  }
  await proposal('Fred Freelancer').getByLabel('Private note').fill('Visits the site first week')
  await submitAndWait(
    page,
    proposal('Fred Freelancer').getByRole('button', { name: 'Save note' }),
    jsEnabled(),
  )
  await expect(proposal('Fred Freelancer').getByLabel('Private note')).toHaveValue(
    'Visits the site first week',
  )
  await page.locator('main').getByLabel('Show', { exact: true }).selectOption('1')
  await page.locator('main').getByRole('button', { name: 'Show', exact: true }).click()
  await expect(page).toHaveURL(/shortlist=1/)
  await expect(page.getByTestId('proposal')).toHaveCount(2)
  await expectNoAxeViolations(page)

  // Compared side by side; at 320 px the cards stack and nothing scrolls sideways.
  await page.getByTestId('compare-link').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Compare proposals' })).toBeVisible()
  const cards = page.getByTestId('compared')
  await expect(cards).toHaveCount(2)
  await expect(cards.first()).toContainText('Fred Freelancer')
  await expect(cards.first().getByTestId('compared-note')).toHaveText('Visits the site first week')
  await expect(cards.nth(1)).toContainText('No note yet')
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 320, height: 700 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  await cards.nth(1).getByRole('button', { name: 'Accept this proposal' }).click()
  await expect(page.getByTestId('accepted-notice')).toBeVisible()
  await page.context().close()
})
