import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { jsEnabled, signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'

// The bell end to end (issue 6 item 7, SPEC §4), JavaScript on and off, on SQLite and PostgreSQL:
// a client accepts a proposal; the freelancer's bell counts it (live through the notifications
// hub with JavaScript, after a reload without), lists it with a grey background, and clicking it
// marks it read and opens the contract page. "Load more" is a link that shows 10 more.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const js = jsEnabled

async function api(method: string, apiPath: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  const response = await fetch(`${shell().base}/api/v1/${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return JSON.parse(text)
}
const tokenOf = async (email: string) => (await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string

const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const bell = (page: Page) => page.locator('header details.bell')
const badge = (page: Page) => bell(page).locator('summary .badge')

test('a client accepts a proposal; the freelancer\'s bell shows it and leads to the contract page', async ({ browser }) => {
  const word = `bell${Date.now().toString(36)}`
  const [clientToken, freelancerToken] = await Promise.all([tokenOf(accounts.client.email), tokenOf(accounts.freelancer.email)])
  const sub = await shell().db.db.selectFrom('subcategory').select('id').where('slug', '=', 'structural-engineering').executeTakeFirstOrThrow()
  const project = await api('POST', 'projects', clientToken, {
    title: `Retaining wall ${word} design check`,
    description: 'Check the design of a two metre retaining wall behind a new garage, with calculations and a short report.',
    subcategoryId: sub.id, budgetType: 'fixed', budgetMinor: 90000, currency: 'EUR', durationDays: 14, remote: true, publish: true,
  })
  await api('POST', `projects/${project.id}/proposal`, freelancerToken, { coverLetter: 'I design retaining walls every week and can send the checked calculations in ten days.', bidMinor: 85000, durationDays: 10 })
  const unreadBefore = (await api('GET', 'notifications/count', freelancerToken)).unreadCount as number

  const freelancer = await signedIn(browser, accounts.freelancer.email)
  await freelancer.goto(`${shell().base}/projects/freelancer`)
  if (js()) await expect(freelancer.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 })
  if (unreadBefore) await expect(badge(freelancer)).toHaveText(String(unreadBefore))
  else await expect(badge(freelancer)).toHaveCount(0)

  // The client accepts with the plain form on the client details page.
  const client = await signedIn(browser, accounts.client.email)
  await client.goto(`${shell().base}/projects/client/details/${project.id}`)
  await client.locator('main').getByTestId('proposal').first().getByRole('button', { name: 'Accept' }).click()
  await client.waitForLoadState('networkidle')

  // Two new ones for the freelancer: the proposal accepted and the contract started. With
  // JavaScript the hub's countNotify reloads the badge in place; without it a reload shows them
  // (once the outbox has delivered, which is after the accept's commit, so reload until then).
  if (js()) await expect(badge(freelancer)).toHaveText(String(unreadBefore + 2), { timeout: 15_000 })
  else {
    await expect(async () => {
      await freelancer.reload()
      await expect(badge(freelancer)).toHaveText(String(unreadBefore + 2), { timeout: 500 })
    }).toPass({ timeout: 15_000 })
  }
  await bell(freelancer).locator('summary').click()
  const item = bell(freelancer).getByTestId('notification').filter({ hasText: 'Proposal accepted' })
  await expect(item).toHaveClass(/unread/)
  await expect(item).toContainText(`Retaining wall ${word} design check`)
  await expect(item.locator('.bell-item')).toHaveCSS('background-color', 'rgb(238, 241, 245)')

  await item.getByRole('button').click()
  await freelancer.waitForURL(`${shell().base}/projects/freelancer/contract/${project.id}`)
  await expect(badge(freelancer)).toHaveText(String(unreadBefore + 1))
  await bell(freelancer).locator('summary').click()
  await expect(bell(freelancer).getByTestId('notification').filter({ hasText: 'Proposal accepted' })).not.toHaveClass(/unread/)

  // The client, reading "contract started", goes to the client details page.
  if (!js()) await client.reload()
  await bell(client).locator('summary').click()
  await bell(client).getByTestId('notification').filter({ hasText: 'Contract started' }).first().getByRole('button').click()
  await client.waitForURL(`${shell().base}/projects/client/details/${project.id}`)
})

test('the bell lists 10 at a time; "load more" shows the next 10', async ({ browser }) => {
  const user = await shell().db.db.selectFrom('app_user').select('id').where('email', '=', accounts.company.email).executeTakeFirstOrThrow()
  const now = Date.now()
  await shell().db.db
    .insertInto('notification')
    .values(Array.from({ length: 13 }, (_, i) => ({ user_id: user.id, source: `e2e:${test.info().project.name}:${i}`, message_key: 'projects:notify.newComment', params: JSON.stringify({ title: `Culvert ${i}` }), type: 'Project' as const, project_id: 1, created_at: new Date(now + i).toISOString() })))
    .execute()
  const page = await signedIn(browser, accounts.company.email)
  await page.goto(`${shell().base}/faq`)
  await bell(page).locator('summary').click()
  await expect(bell(page).getByTestId('notification')).toHaveCount(10)
  await expect(bell(page).getByTestId('notification').first()).toContainText('Culvert 12')
  await bell(page).getByRole('link', { name: 'Load more' }).click()
  await expect(page).toHaveURL(`${shell().base}/faq?bell=20`)
  await expect(bell(page)).toHaveAttribute('open', '')
  await expect(bell(page).getByTestId('notification')).toHaveCount(13)
  await expect(bell(page).getByRole('link', { name: 'Load more' })).toHaveCount(0)
  await expectNoAxeViolations(page)
})
