import { expect, test, type Browser, type Page } from '@playwright/test'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { submitAndWait } from './form-submit'
import { untilHydrated } from './settle'

// Saved searches and job alerts end to end (issue 41 item 1, decision 328), JavaScript on
// (PostgreSQL) and off (SQLite): a freelancer saves a Find Project search from the page; a client
// publishes a matching project; the freelancer's notifications show the alert, and the daily digest
// arrives at a real SMTP server; its link stops the emails without signing in, once. The digest job
// runs every second here, and "a day passes" is the search's due time moved into the past.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
test.beforeAll(async () => void (smtp = await startSmtpServer()))
test.afterAll(async () => smtp?.close())
const shell = useShellServer(() => ({ SMTP_URL: smtp.url, ALERT_DIGEST_SWEEP_MS: '1000' }))

async function api(method: string, apiPath: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  const response = await fetch(`${shell().base}/api/v1/${apiPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return JSON.parse(text)
}
const tokenOf = async (email: string) =>
  (await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
/** With JavaScript, waits until the page has hydrated, so what is typed next is kept. */
const hydrated = async (page: Page) => (jsEnabled() ? untilHydrated(page) : undefined)
const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)

test('a freelancer saves a search, a matching project reaches them as an alert and in the digest, whose link stops it once', async ({
  browser,
}) => {
  const word = `kerb${Date.now().toString(36)}`
  const name = `Kerbs ${word}`
  const freelancer = await signedIn(browser, accounts.freelancer.email)

  // Find Project, searched, then "Save this search" with a name and a daily digest.
  await freelancer.goto(`${shell().base}/projects/getprojects?search=${word}&remote=true`)
  await hydrated(freelancer)
  await freelancer.locator('main').getByRole('link', { name: 'Save this search' }).click()
  await expect(freelancer.getByRole('heading', { level: 1, name: 'Save this search' })).toBeVisible()
  await expect(freelancer.locator('main .chips')).toContainText(`Words: ${word}`)
  await expectNoAxeViolations(freelancer)
  // Without a name the form says so and saves nothing.
  const saveButton = freelancer.getByRole('button', { name: 'Save search' })
  await submitAndWait(freelancer, saveButton, jsEnabled())
  await expect(freelancer.getByText('Give the search a name', { exact: true })).toBeVisible()
  await freelancer.locator('main').getByLabel('Name').fill(name)
  await freelancer.locator('main').getByLabel('Email digest').selectOption('daily')
  await submitAndWait(freelancer, saveButton, jsEnabled())
  await expect(freelancer.getByTestId('alerts-done')).toHaveText('The search is saved.')
  const card = freelancer.getByTestId('saved-search').filter({ hasText: name })
  await expect(card).toBeVisible()
  await expect(card.locator('[data-status]')).toHaveAttribute('data-status', 'on')
  await expectNoAxeViolations(freelancer)

  // A client publishes a matching project (and one that does not match).
  const clientToken = await tokenOf(accounts.client.email)
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = (over: Record<string, unknown>) =>
    api('POST', 'projects', clientToken, {
      title: `Precast ${word} kerb design`,
      description: 'Design of precast concrete kerbs and their bedding for a new cycle lane, with details.',
      subcategoryId: sub.id,
      budgetType: 'fixed',
      budgetMinor: 120000,
      currency: 'EUR',
      durationDays: 14,
      remote: true,
      publish: true,
      ...over,
    })
  const match = await project({})
  await project({ title: `Site ${word} kerb survey`, remote: false, location: 'Leeds' })

  // The alert is in the freelancer's notifications.
  await expect(async () => {
    await freelancer.goto(`${shell().base}/notifications`)
    await hydrated(freelancer)
    await expect(freelancer.locator('main')).toContainText(`New project for “${name}”`, { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(freelancer.locator('main')).toContainText(
    `“Precast ${word} kerb design” matches your saved search.`,
  )

  // A day later the digest goes: one mail with the match, its link to the project.
  const since = smtp.mails.length
  const search = await shell()
    .db.db.selectFrom('saved_search')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
  await shell()
    .db.db.updateTable('saved_search')
    .set({ digest_due_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', search.id)
    .execute()
  const mail = await smtp.waitFor(accounts.freelancer.email, (m) => m.subject.includes(name), 30_000, since)
  expect(mail.subject).toBe(`New projects for “${name}” on Workneer`)
  expect(mail.text).toContain(`1 new project matches your saved search “${name}”`)
  expect(linkIn(mail, '/projects/details/')).toMatch(new RegExp(`/projects/details/${match.id}$`))

  // The mail's link, opened without signing in: the button stops the emails, once.
  const visitor = await (
    await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  ).newPage()
  const link = linkIn(mail, '/alerts/unsubscribe/')
  await visitor.goto(link.replace(/^https?:\/\/[^/]+/, shell().base))
  await expect(visitor.getByRole('heading', { level: 1, name: 'Stop the email digest' })).toBeVisible()
  await expectNoAxeViolations(visitor)
  await visitor.getByRole('button', { name: 'Stop the emails' }).click()
  await expect(visitor.getByTestId('unsubscribe-outcome')).toHaveText(
    `You will get no more emails for “${name}”.`,
  )
  await visitor.goto(link.replace(/^https?:\/\/[^/]+/, shell().base))
  await visitor.getByRole('button', { name: 'Stop the emails' }).click()
  await expect(visitor.getByTestId('unsubscribe-outcome')).toHaveText(
    'This link was used already: nothing changed.',
  )

  // The saved searches page shows it without emails; switched off, then deleted.
  await freelancer.goto(`${shell().base}/alerts`)
  await hydrated(freelancer)
  const settings = card.locator('details')
  await settings.locator('summary').click()
  await expect(settings.getByLabel('Email digest')).toHaveValue('never')
  await submitAndWait(freelancer, card.getByRole('button', { name: 'Switch off' }), jsEnabled())
  await expect(freelancer.getByTestId('alerts-done')).toHaveText('Your changes are saved.')
  await expect(card.locator('[data-status]')).toHaveAttribute('data-status', 'off')
  await submitAndWait(freelancer, card.getByRole('button', { name: 'Delete' }), jsEnabled())
  await expect(freelancer.getByTestId('alerts-done')).toHaveText('The saved search is deleted.')
  await expect(card).toHaveCount(0)
})
