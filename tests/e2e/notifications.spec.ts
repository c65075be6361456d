import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { fundByApi } from './checkout'
import { settle } from './settle'
import { jsEnabled } from './project-js'

// The bell end to end (issue 6 item 7, docs/product.md §4), JavaScript on and off, on SQLite and PostgreSQL:
// a client accepts a proposal; the freelancer's bell counts it (live through the notifications
// hub with JavaScript, after a reload without), lists it with a grey background, and clicking it
// marks it read and opens the contract page. "Load more" is a link that shows 10 more.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const js = jsEnabled

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

const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const bell = (page: Page) => page.locator('header details.bell')
const badge = (page: Page) => bell(page).locator('summary .badge')

test("a client accepts a proposal; the freelancer's bell shows it and leads to the contract page", async ({
  browser,
}) => {
  const word = `bell${Date.now().toString(36)}`
  const [clientToken, freelancerToken] = await Promise.all([
    tokenOf(accounts.client.email),
    tokenOf(accounts.freelancer.email),
  ])
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await api('POST', 'projects', clientToken, {
    title: `Retaining wall ${word} design check`,
    description:
      'Check the design of a two metre retaining wall behind a new garage, with calculations and a short report.',
    subcategoryId: sub.id,
    budgetType: 'fixed',
    budgetMinor: 90000,
    currency: 'EUR',
    durationDays: 14,
    remote: true,
    publish: true,
  })
  await api('POST', `projects/${project.id}/proposal`, freelancerToken, {
    coverLetter: 'I design retaining walls every week and can send the checked calculations in ten days.',
    bidMinor: 85000,
    durationDays: 10,
  })
  const unreadBefore = (await api('GET', 'notifications/count', freelancerToken)).unreadCount as number

  const freelancer = await signedIn(browser, accounts.freelancer.email)
  await freelancer.goto(`${shell().base}/projects/freelancer`)
  if (js())
    await expect(freelancer.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', {
      timeout: 15_000,
    })
  if (unreadBefore) await expect(badge(freelancer)).toHaveText(String(unreadBefore))
  else await expect(badge(freelancer)).toHaveCount(0)

  // The client accepts with the plain form on the client details page.
  const client = await signedIn(browser, accounts.client.email)
  await client.goto(`${shell().base}/projects/client/details/${project.id}`)
  await client.locator('main').getByTestId('proposal').first().getByRole('button', { name: 'Accept' }).click()
  await settle(client)

  // One new one for the freelancer: the proposal accepted, which says the contract started (one
  // event, one notification: issue 39 item 6). With JavaScript the hub's countNotify reloads the
  // badge in place; without it a reload shows it (once the outbox has delivered, which is after the
  // accept's commit, so reload until then).
  if (js()) await expect(badge(freelancer)).toHaveText(String(unreadBefore + 1), { timeout: 15_000 })
  else {
    await expect(async () => {
      await freelancer.reload()
      await expect(badge(freelancer)).toHaveText(String(unreadBefore + 1), { timeout: 500 })
    }).toPass({ timeout: 15_000 })
  }
  await bell(freelancer).locator('summary').click()
  const item = bell(freelancer).getByTestId('notification').filter({ hasText: 'Proposal accepted' })
  await expect(item).toHaveClass(/unread/)
  await expect(item).toContainText(`Retaining wall ${word} design check`)
  // Only that one about this project (not also "Contract started").
  await expect(
    bell(freelancer)
      .getByTestId('notification')
      .filter({ hasText: `Retaining wall ${word}` }),
  ).toHaveCount(1)
  await expect(item.locator('.bell-item')).toHaveCSS('background-color', 'rgb(238, 241, 245)')

  await item.getByRole('button').click()
  await freelancer.waitForURL(`${shell().base}/projects/freelancer/contract/${project.id}`)
  if (unreadBefore) await expect(badge(freelancer)).toHaveText(String(unreadBefore))
  else await expect(badge(freelancer)).toHaveCount(0)
  await bell(freelancer).locator('summary').click()
  await expect(
    bell(freelancer).getByTestId('notification').filter({ hasText: 'Proposal accepted' }),
  ).not.toHaveClass(/unread/)

  // The client, reading the proposal that named the freelancer, goes to the client details page.
  if (!js()) await client.reload()
  await bell(client).locator('summary').click()
  await bell(client)
    .getByTestId('notification')
    .filter({ hasText: `Fred Freelancer sent a proposal for “Retaining wall ${word} design check”` })
    .getByRole('button')
    .click()
  await client.waitForURL(`${shell().base}/projects/client/details/${project.id}`)
})

test('the bell lists 10 at a time; "load more" shows the next 10', async ({ browser }) => {
  const user = await shell()
    .db.db.selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.company.email)
    .executeTakeFirstOrThrow()
  const now = Date.now()
  await shell()
    .db.db.insertInto('notification')
    .values(
      Array.from({ length: 13 }, (_, i) => ({
        user_id: user.id,
        source: `e2e:${test.info().project.name}:${i}`,
        message_key: 'projects:notify.newComment',
        params: JSON.stringify({ title: `Culvert ${i}` }),
        type: 'Project' as const,
        project_id: 1,
        created_at: new Date(now + i).toISOString(),
      })),
    )
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

// Issue 15 item 4: notifications in the page. Helpers for a fresh project with one proposal.
async function projectWithProposal(word: string, propose = true) {
  const [clientToken, freelancerToken] = await Promise.all([
    tokenOf(accounts.client.email),
    tokenOf(accounts.freelancer.email),
  ])
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await api('POST', 'projects', clientToken, {
    title: `Steel stair ${word} connection design`,
    description:
      'Design the bolted connections of an external steel stair to an existing concrete slab, with calculations.',
    subcategoryId: sub.id,
    budgetType: 'fixed',
    budgetMinor: 60000,
    currency: 'EUR',
    durationDays: 10,
    remote: true,
    publish: true,
  })
  const sendProposal = () =>
    api('POST', `projects/${project.id}/proposal`, freelancerToken, {
      coverLetter:
        'I design steel stair connections to concrete often and can send the calculations within a week.',
      bidMinor: 55000,
      durationDays: 7,
    })
  const proposal = propose ? await sendProposal() : null
  return { project, proposal, sendProposal, clientToken, freelancerToken }
}
const connected = (page: Page) =>
  expect(page.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', {
    timeout: 15_000,
  })

test(
  'two tabs of the freelancer: an alert shows in the open bell as it arrives; reading it in one tab lowers the count in the other',
  { tag: '@needs-js' },
  async ({ browser }) => {
    const word = `tabs${Date.now().toString(36)}`
    const { project, proposal, clientToken, freelancerToken } = await projectWithProposal(word)
    const unreadBefore = (await api('GET', 'notifications/count', freelancerToken)).unreadCount as number
    const tabA = await signedIn(browser, accounts.freelancer.email)
    const tabB = await tabA.context().newPage()
    await tabA.goto(`${shell().base}/projects/freelancer/porposals`)
    await tabB.goto(`${shell().base}/faq`)
    await Promise.all([connected(tabA), connected(tabB)])
    await bell(tabA).locator('summary').click()

    // Tab A's loaders answer slowly from now on: what it shows next comes from the pushed alert itself.
    await tabA.route(/\.data(\?|$)/, async (route) => {
      await new Promise((r) => setTimeout(r, 10_000))
      await route.continue().catch(() => undefined)
    })
    await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, clientToken)
    const arrived = bell(tabA)
      .getByTestId('notification')
      .filter({ hasText: 'Proposal accepted' })
      .filter({ hasText: word })
    await expect(arrived).toBeVisible({ timeout: 5_000 })
    await expect(arrived).toHaveClass(/unread/)
    await expect(badge(tabA)).toHaveText(String(unreadBefore + 1), { timeout: 5_000 })
    await expect(tabA.getByTestId('notification-arrived')).toContainText('New notification:')
    await tabA.unrouteAll({ behavior: 'ignoreErrors' })

    // Tab B reads it: it goes to the contract page, and tab A's count falls without a reload.
    await expect(badge(tabB)).toHaveText(String(unreadBefore + 1), { timeout: 15_000 })
    await bell(tabB).locator('summary').click()
    await bell(tabB)
      .getByTestId('notification')
      .filter({ hasText: 'Proposal accepted' })
      .filter({ hasText: word })
      .getByRole('button')
      .click()
    await tabB.waitForURL(`${shell().base}/projects/freelancer/contract/${project.id}`)
    if (unreadBefore) await expect(badge(tabA)).toHaveText(String(unreadBefore), { timeout: 15_000 })
    else await expect(badge(tabA)).toHaveCount(0, { timeout: 15_000 })
    await expect(tabA).toHaveURL(`${shell().base}/projects/freelancer/porposals`)
    if (!(await bell(tabA).getAttribute('open'))) await bell(tabA).locator('summary').click()
    await expect(
      bell(tabA)
        .getByTestId('notification')
        .filter({ hasText: 'Proposal accepted' })
        .filter({ hasText: word }),
    ).not.toHaveClass(/unread/)
  },
)

// A party who is notified reloads anyway (countNotify); the group is what carries the changes
// nobody notifies them of: their own action in another tab, or a step the other side is told of.
test(
  'pages open on a project follow it without a reload, also what the viewer did in another tab',
  { tag: '@needs-js' },
  async ({ browser }) => {
    const word = `live${Date.now().toString(36)}`
    const { project, sendProposal, clientToken, freelancerToken } = await projectWithProposal(word, false)
    const client = await signedIn(browser, accounts.client.email)
    await client.goto(`${shell().base}/projects/client/details/${project.id}`)
    await connected(client)
    await expect(client.locator('main').getByTestId('proposal')).toHaveCount(0)
    const proposal = await sendProposal()
    await expect(client.locator('main').getByTestId('proposal')).toHaveCount(1, { timeout: 15_000 })
    await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, clientToken)

    const freelancer = await signedIn(browser, accounts.freelancer.email)
    await freelancer.goto(`${shell().base}/projects/freelancer/contract/${project.id}`)
    await connected(freelancer)
    const first = await shell()
      .db.db.selectFrom('installment as i')
      .innerJoin('contract as c', 'c.id', 'i.contract_id')
      .where('c.project_id', '=', project.id)
      .select('i.id')
      .orderBy('i.position')
      .executeTakeFirstOrThrow()
    const onClient = client.locator('main').getByTestId('installment-1')
    const onFreelancer = freelancer.locator('main').getByTestId('installment-1')
    await expect(onClient).toBeVisible({ timeout: 15_000 })

    // The client funds from elsewhere (only the freelancer is notified): the client's open page shows it.
    await fundByApi(shell().base, clientToken, project.id, [first.id])
    await expect(onClient).toContainText('Funded', { timeout: 15_000 })
    await expect(onFreelancer).toContainText('Funded', { timeout: 15_000 })
    // The freelancer submits from elsewhere (only the client is notified): the contract page shows it.
    await api('POST', `projects/installments/${first.id}/submit`, freelancerToken, {
      note: 'Connection calculations attached.',
    })
    await expect(onFreelancer).toContainText('Submitted', { timeout: 15_000 })
    await expect(onClient).toContainText('Submitted', { timeout: 15_000 })
  },
)

test('/notifications lists ten a page with plain links; the bell\'s "See all" leads there; an item opens what it is about', async ({
  browser,
  page,
}) => {
  await page.goto(`${shell().base}/notifications`)
  await expect(page).toHaveURL(`${shell().base}/auth/login?redirectTo=%2Fnotifications`)

  const user = await shell()
    .db.db.selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.company.email)
    .executeTakeFirstOrThrow()
  await shell().db.db.deleteFrom('notification').where('user_id', '=', user.id).execute()
  const now = Date.now()
  await shell()
    .db.db.insertInto('notification')
    .values(
      Array.from({ length: 13 }, (_, i) => ({
        user_id: user.id,
        source: `e2e-page:${test.info().project.name}:${i}`,
        message_key: 'projects:notify.projectCancelled',
        params: JSON.stringify({ title: `Sluice ${i}` }),
        type: 'ProjectStatus' as const,
        project_id: null,
        created_at: new Date(now + i).toISOString(),
      })),
    )
    .execute()
  const company = await signedIn(browser, accounts.company.email)
  await company.goto(`${shell().base}/faq`)
  await bell(company).locator('summary').click()
  await bell(company).getByRole('link', { name: 'See all' }).click()
  await expect(company).toHaveURL(`${shell().base}/notifications`)
  await expect(company.getByRole('heading', { level: 1 })).toHaveText('Notifications')
  await expect(company.locator('main')).toContainText('Unread: 13')
  const items = company.locator('main').getByTestId('notification')
  await expect(items).toHaveCount(10)
  await expect(items.first()).toContainText('Sluice 12')
  await expect(items.first()).toHaveClass(/unread/)
  await expectNoAxeViolations(company)

  await company.locator('main').getByRole('link', { name: 'Older' }).click()
  await expect(company).toHaveURL(`${shell().base}/notifications?page=2`)
  await expect(items).toHaveCount(3)
  await expect(items.last()).toContainText('Sluice 0')
  await expect(company.locator('main').getByRole('link', { name: 'Older' })).toHaveCount(0)

  // An item is the bell's form: it is marked read and opens its target (here none: the home page).
  await items.last().getByRole('button').click()
  await expect(company).toHaveURL(`${shell().base}/`)
  await company.goto(`${shell().base}/notifications?page=2`)
  await expect(items.last()).not.toHaveClass(/unread/)
  await expect(company.locator('main')).toContainText('Unread: 12')
  await company.locator('main').getByRole('link', { name: 'Newer' }).click()
  await expect(company).toHaveURL(`${shell().base}/notifications`)
  await expect(items).toHaveCount(10)
})

test('"Mark all as read" in the bell and on /notifications marks every one read and comes back to the page', async ({
  browser,
}) => {
  const user = await shell()
    .db.db.selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.company.email)
    .executeTakeFirstOrThrow()
  const seed = async (tag: string, count: number) => {
    await shell().db.db.deleteFrom('notification').where('user_id', '=', user.id).execute()
    await shell()
      .db.db.insertInto('notification')
      .values(
        Array.from({ length: count }, (_, i) => ({
          user_id: user.id,
          source: `e2e-all:${tag}:${test.info().project.name}:${i}`,
          message_key: 'projects:notify.projectCancelled',
          params: JSON.stringify({ title: `Weir ${i}` }),
          type: 'ProjectStatus' as const,
          project_id: null,
          created_at: new Date(Date.now() + i).toISOString(),
        })),
      )
      .execute()
  }
  await seed('bell', 12)
  const company = await signedIn(browser, accounts.company.email)
  await company.goto(`${shell().base}/faq`)
  await expect(badge(company)).toHaveText('12')
  await bell(company).locator('summary').click()
  await bell(company).getByRole('button', { name: 'Mark all as read' }).click()
  await expect(company).toHaveURL(`${shell().base}/faq`)
  await expect(badge(company)).toHaveCount(0)
  await bell(company).locator('summary').click()
  await expect(bell(company).locator('li.unread')).toHaveCount(0)
  await expect(bell(company).getByRole('button', { name: 'Mark all as read' })).toHaveCount(0)

  await seed('page', 3)
  await company.goto(`${shell().base}/notifications`)
  await expect(company.locator('main')).toContainText('Unread: 3')
  await company.locator('main').getByRole('button', { name: 'Mark all as read' }).click()
  await expect(company).toHaveURL(`${shell().base}/notifications`)
  await expect(company.locator('main')).toContainText('Unread: 0')
  await expect(company.locator('main li.unread')).toHaveCount(0)
  await expect(company.locator('main').getByRole('button', { name: 'Mark all as read' })).toHaveCount(0)
  const rows = await shell()
    .db.db.selectFrom('notification')
    .select('is_read')
    .where('user_id', '=', user.id)
    .execute()
  expect(rows.map((r) => r.is_read)).toEqual([1, 1, 1])
  await company.context().close()
})
