import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, SHELL_PASSWORD, startShellServer } from './shell-server'
import { fundByApi } from './checkout'
import { jsEnabled } from './project-js'
import { untilHydrated } from './settle'
import { signInAs } from './shell-session'

// Issue 15 item 2: signing in lands on /dashboard, where a client sees the proposals to decide and
// each contract's next step, and a freelancer their proposals, the contract's next installment and
// what to add to the profile; each item one click from its page. With JavaScript on and off, on
// SQLite and PostgreSQL; axe; the menus and the home page's calls to action; five languages.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
let server: Awaited<ReturnType<typeof startShellServer>>
const ids = { decide: 0, hired: 0 }

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startShellServer(testInfo)
  // The marketplace as the two users left it, through the API: a project with a proposal to
  // decide, and a hired one whose first installment the client has funded.
  const api = async (method: string, path: string, token: string | null, body?: unknown) => {
    const r = await fetch(`${server.base}/api/v1/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
    return r.json()
  }
  const token = async (email: string) =>
    (await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
  const client = await token(accounts.client.email)
  const freelancer = await token(accounts.freelancer.email)
  const { id: subcategoryId } = await server.db.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = (title: string) =>
    api('POST', 'projects', client, {
      title,
      description: 'Structural checks for a timber footbridge over a garden stream, with drawings.',
      subcategoryId,
      budgetType: 'fixed',
      budgetMinor: 200000,
      currency: 'EUR',
      remote: true,
      publish: true,
    })
  const propose = (projectId: number) =>
    api('POST', `projects/${projectId}/proposal`, freelancer, {
      coverLetter: 'I have checked many timber bridges and can deliver in two weeks.',
      bidMinor: 180000,
      durationDays: 14,
      installments: [
        { title: 'Calculations', amountMinor: 120000 },
        { title: 'Drawings', amountMinor: 60000 },
      ],
    })
  const hired = await project('Footbridge calculations')
  const decide = await project('Garden wall survey')
  const proposal = await propose(hired.id)
  await propose(decide.id)
  const contract = await api('POST', `projects/proposals/${proposal.id}/accept/${hired.id}`, client)
  await fundByApi(server.base, client, hired.id, [contract.installments[0].id])
  Object.assign(ids, { decide: decide.id, hired: hired.id })
})
test.afterAll(async () => {
  await server?.stop()
})

async function signIn(browser: Browser, email: string, locale = 'en-US') {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale })
  const page = await context.newPage()
  await page.goto(`${server.base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(`${server.base}/dashboard`)
  return page
}

test('a client lands on the dashboard: proposals to decide, the contract waiting on the freelancer, one click from each', async ({
  browser,
}) => {
  const page = await signIn(browser, accounts.client.email)
  const main = page.locator('main')
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Dashboard')
  await expect(page).toHaveTitle('Dashboard – Workneer')
  const decide = main.getByRole('region', { name: 'Proposals to decide' })
  await expect(decide.getByTestId('dash-project')).toHaveCount(1)
  await expect(decide.getByTestId('dash-project')).toContainText('New proposals: 1')
  const contract = main.getByRole('region', { name: 'Active contracts' }).getByTestId('dash-contract')
  await expect(contract).toContainText(
    'Waiting for Fred Freelancer to deliver installment 1, “Calculations”.',
  )
  await expect(
    main.getByRole('region', { name: 'Messages' }).getByRole('link', { name: 'Open all chats' }),
  ).toHaveAttribute('href', '/chats')
  await expect(main.getByRole('region', { name: 'Notifications' })).toBeVisible()
  await expectNoAxeViolations(page)
  await decide.getByRole('link', { name: 'Garden wall survey' }).click()
  await expect(page).toHaveURL(`${server.base}/projects/client/details/${ids.decide}`)
  await page.goBack()
  await main.getByRole('link', { name: 'Footbridge calculations', exact: true }).click()
  await expect(page).toHaveURL(`${server.base}/projects/client/details/${ids.hired}`)
  await page.context().close()
})

test('a freelancer lands on the dashboard: proposals by state, the next installment is theirs, what to add to the profile', async ({
  browser,
}) => {
  const page = await signIn(browser, accounts.freelancer.email)
  const main = page.locator('main')
  const proposals = main.getByRole('region', { name: 'My proposals' })
  await expect(proposals.getByTestId('dash-proposal')).toHaveCount(2)
  const count = (state: string) =>
    proposals
      .locator('.dashboard-counts > div', { has: page.getByText(state, { exact: true }) })
      .locator('dd')
  await expect(count('Pending')).toHaveText('1')
  await expect(count('Accepted')).toHaveText('1')
  await expect(count('Declined')).toHaveText('0')
  const contract = main.getByRole('region', { name: 'Active contracts' }).getByTestId('dash-contract')
  await expect(contract).toContainText('Your move: deliver installment 1, “Calculations”.')
  await expect(
    main
      .getByRole('region', { name: 'Your profile' })
      .getByRole('link', { name: 'Add next: Profile picture' }),
  ).toHaveAttribute('href', '/profile#image')
  await expectNoAxeViolations(page)
  await contract.getByRole('link', { name: 'Footbridge calculations' }).click()
  await expect(page).toHaveURL(`${server.base}/projects/freelancer/contract/${ids.hired}`)
  await page.context().close()
})

test('signed in, the menus lead to the dashboard and reviews, and the home page no longer sends anyone to sign-up', async ({
  browser,
}) => {
  const client = await signIn(browser, accounts.client.email)
  const bar = client.locator('header[data-topbar="client"]')
  await bar.locator('details.profile-menu > summary').click()
  const menu = bar.locator('details.profile-menu .menu-panel')
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
  await expect(menu.getByRole('link', { name: 'Reviews' })).toHaveAttribute('href', '/reviews')
  await client.goto(`${server.base}/`)
  const cta = client.locator('main .cta-actions')
  await expect(cta.getByRole('link')).toHaveCount(2)
  await expect(cta.getByRole('link', { name: 'Post a project' })).toHaveAttribute('href', '/projects/create')
  await expect(cta.getByRole('link', { name: 'Find freelancers' })).toHaveAttribute('href', '/freelancers')
  await client.goto(`${server.base}/auth/gotosign`)
  await expect(client).toHaveURL(`${server.base}/dashboard`)
  await client.context().close()

  const freelancer = await signIn(browser, accounts.freelancer.email)
  await freelancer.goto(`${server.base}/`)
  const links = freelancer.locator('main .cta-actions').getByRole('link')
  await expect(links.first()).toHaveText('Find work')
  await expect(links.first()).toHaveAttribute('href', '/projects/getprojects?search=all')
  await expect(freelancer.locator('main .cta-actions a[href="/auth/gotosign"]')).toHaveCount(0)
  await freelancer.context().close()
})

for (const [lang, title] of [
  ['de', 'Übersicht'],
  ['ru', 'Обзор'],
  ['es', 'Panel'],
  ['it', 'Bacheca'],
] as const) {
  test(`the dashboard speaks ${lang}`, async ({ browser }) => {
    const page = await signIn(browser, accounts.freelancer.email)
    await page.context().addCookies([{ name: 'lang', value: lang, url: server.base }])
    await page.goto(`${server.base}/dashboard`)
    await expect(page.locator('main h1')).toHaveText(title)
    await expect(page).toHaveTitle(`${title} – Workneer`)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    await page.context().close()
  })
}

// Decisions 365 and 370: the pages' amounts, counts and dates come worded by the server, so the
// browser builds no Intl number, date or region formatter while a page starts (the first of each
// costs a phone 100–180 ms); the text is the server's, with JavaScript on and off. One page of each
// kind a client, a freelancer and support open, in German, each with one amount or date the page
// shows: the same text in the server's HTML and on screen.
type Worded = readonly [path: string, shown: (page: Page) => Locator, text: string | RegExp]
const germanDay = /\d{2}\.\d{2}\.\d{4}/

/** Opens each page in German and checks its value's text and that no Intl formatter was built. */
async function expectWorded(page: Page, pages: readonly Worded[]) {
  await page.context().addCookies([{ name: 'lang', value: 'de', url: server.base }])
  await page.addInitScript(() => {
    const built: string[] = ((window as unknown as { intlBuilt: string[] }).intlBuilt = [])
    for (const kind of ['NumberFormat', 'DateTimeFormat', 'DisplayNames'] as const) {
      const trap = (make: () => unknown) => (built.push(kind), make())
      Object.assign(Intl, {
        [kind]: new Proxy(Intl[kind], {
          construct: (target, args, next) => trap(() => Reflect.construct(target, args, next)) as object,
          apply: (target, self, args) => trap(() => Reflect.apply(target, self, args)),
        }),
      })
    }
  })
  const built = () => page.evaluate(() => (window as unknown as { intlBuilt: string[] }).intlBuilt)
  for (const [path, shown, text] of pages) {
    const html = (await (await page.request.get(`${server.base}${path}`)).text()).replace(/\u00a0/g, ' ')
    await page.goto(`${server.base}${path}`)
    if (jsEnabled()) await untilHydrated(page)
    await expect(shown(page).first(), path).toContainText(text)
    const seen = (await shown(page).first().innerText()).replace(/\u00a0/g, ' ')
    const value = typeof text === 'string' ? text : seen.match(text)![0]
    expect(html, path).toContain(value)
    if (jsEnabled()) expect(await built(), path).toEqual([])
  }
  await page.context().close()
}

test('amounts and dates are the server’s words: the same text after hydration, and no Intl formatter built while a page starts', async ({
  browser,
}) => {
  const byId = (id: string) => (page: Page) => page.getByTestId(id)
  await expectWorded(await signIn(browser, accounts.freelancer.email), [
    ['/dashboard', (page) => page.locator('main h1'), 'Übersicht'],
    ['/projects/freelancer', byId('contract'), '1.800,00 €'],
    [`/projects/freelancer/contract/${ids.hired}`, byId('current-value'), '1.800,00 €'],
    [
      '/projects/getprojects',
      (page) => page.getByTestId('project-card').filter({ hasText: 'Garden wall survey' }),
      '2.000,00 €',
    ],
    [
      `/projects/details/${ids.decide}`,
      (page) => page.locator('[aria-labelledby="my-proposal"]'),
      '1.800,00 €',
    ],
    ['/projects/freelancer/porposals', byId('my-proposal'), '1.800,00 €'],
  ])
  await expectWorded(await signIn(browser, accounts.client.email), [
    [`/projects/client/details/${ids.hired}`, byId('contract-value'), '1.800,00 €'],
    // The first installment and its fee, paid into escrow.
    ['/statements', byId('movement'), '+1.236,00 €'],
  ])
  await expectWorded(await signInAs(browser, server.base, accounts.admin.email), [
    [
      '/admin/users',
      (page) => page.getByTestId('user-row').filter({ hasText: accounts.client.email }),
      germanDay,
    ],
    ['/admin/payments', byId('health-checked-at'), germanDay],
  ])
})
