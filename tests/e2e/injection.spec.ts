import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { shellApi } from './shell-api'
import { settle } from './settle'
import { jsEnabled } from './project-js'

// Issue 19 item 2, injection (decision 258): SQL, HTML and script payloads written into every
// text field the marketplace shows (project, installments, proposal, profiles, chat, complaint)
// are stored as written and shown as text. Each page that shows them is opened by whoever may see
// it: no script runs (the payloads set window.__pwned or open a dialog), no injected element
// exists (each carries an id starting "inj-"), and the payload's own text is on the page (so the
// field really is shown there). JavaScript on and off: without it, the DOM is the server's HTML.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const { call, login } = shellApi(() => shell().base)

/** A payload for one field: an element, a script, an attribute break-out and SQL, tagged with the field. */
const payload = (field: string) =>
  `<img src=x onerror="window.__pwned='${field}'" id="inj-${field}"><script>window.__pwned='${field}'</script>"><b id="inj2-${field}">' OR '1'='1'; --`
const filler = ' Check the foundations of a small house extension and write a short report with drawings.'

let ids: { projectId: number; roomId: number; complaintId: number; freelancerId: number; clientId: number }

test.beforeAll(async () => {
  const [client, freelancer, admin] = await Promise.all([
    login(accounts.client.email),
    login(accounts.freelancer.email),
    login(accounts.admin.email),
  ])
  void admin
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await call('POST', 'projects', client, {
    title: `<b id="inj-title">T</b>'--`,
    description: `${payload('description')}${filler}`,
    subcategoryId: sub.id,
    budgetType: 'fixed',
    budgetMinor: 90000,
    currency: 'EUR',
    durationDays: 14,
    remote: true,
    publish: true,
    installments: [{ title: `<i id="inj-stage">S</i>`, amountMinor: 90000 }],
  })
  const proposal = await call('POST', `projects/${project.id}/proposal`, freelancer, {
    coverLetter: `${payload('cover')}${filler}`,
    bidMinor: 90000,
    durationDays: 10,
  })
  const contract = await call('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, client)
  await call('POST', `chat/${contract.roomId}`, client, {
    clientMessageId: 'injection-message-1',
    text: payload('chat'),
  })
  await call('PUT', 'freelancers/profile/description', freelancer, {
    description: `${payload('freelancer')}${filler}`,
  })
  await call('PUT', 'freelancers/profile/title-overview', freelancer, {
    title: `<u id="inj-ftitle">E</u>'--`,
    overview: payload('overview'),
  })
  await call('PUT', 'clients/profile/about', client, {
    who: payload('who'),
    what: payload('what'),
    description: payload('about'),
  })
  const complaint = await call('POST', 'complaints', client, {
    subject: `contract:${contract.id}`,
    title: `<s id="inj-ctitle">C</s>'--`,
    description: `${payload('complaint')}${filler}`,
  })
  const me = async (token: string) => (await call('GET', 'identity/profile', token)).id as number
  ids = {
    projectId: project.id,
    roomId: contract.roomId,
    complaintId: complaint.id,
    freelancerId: await me(freelancer),
    clientId: await me(client),
  }
})

/** Opens `path` as that page's reader and checks that nothing injected ran or exists, and that `shows` is on it as text. */
async function visit(page: Page, path: string, shows: string[]) {
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  await page.goto(`${shell().base}${path}`)
  await settle(page)
  expect(await page.locator('[id^="inj"]').count(), `${path}: injected elements`).toBe(0)
  if (jsEnabled())
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned),
      `${path}: a payload ran`,
    ).toBeUndefined()
  expect(dialogs, `${path}: dialogs`).toEqual([])
  const text = await page.locator('body').innerText()
  for (const field of shows)
    expect(text, `${path} shows the ${field} payload as text`).toContain(
      field.startsWith('<') ? field : `window.__pwned='${field}'`,
    )
}

const as = (browser: Browser, who: keyof typeof accounts) =>
  signInAs(browser, shell().base, accounts[who].email)

test("the client's pages show every payload as text", async ({ browser }) => {
  const page = await as(browser, 'client')
  await visit(page, `/projects/client/details/${ids.projectId}`, ['description', '<b id="inj-title">T</b>'])
  await visit(page, '/projects/client', ['<b id="inj-title">T</b>'])
  await visit(page, `/chats/${ids.roomId}`, ['chat'])
  await visit(page, `/ticketSupport/${ids.complaintId}`, ['complaint', '<s id="inj-ctitle">C</s>'])
  await visit(page, '/ticketSupport', ['<s id="inj-ctitle">C</s>'])
  await visit(page, `/profiles/freelancers/${ids.freelancerId}`, ['freelancer', '<u id="inj-ftitle">E</u>'])
  await visit(page, '/profile', [])
  await visit(page, '/dashboard', [])
  await visit(page, '/notifications', [])
})

test("the freelancer's pages show every payload as text", async ({ browser }) => {
  const page = await as(browser, 'freelancer')
  await visit(page, `/projects/details/${ids.projectId}`, ['description'])
  await visit(page, `/projects/freelancer/contract/${ids.projectId}`, ['<i id="inj-stage">S</i>'])
  await visit(page, '/projects/freelancer/porposals', [])
  await visit(page, `/chats/${ids.roomId}`, ['chat'])
  await visit(page, '/profile', [])
  await visit(page, `/profiles/clients/${ids.clientId}`, ['about'])
})

test("support's pages and a visitor's show them as text too", async ({ browser }) => {
  const admin = await as(browser, 'admin')
  await visit(admin, `/admin/complaints/${ids.complaintId}`, ['complaint'])
  await visit(admin, '/admin/complaints', ['<s id="inj-ctitle">C</s>'])
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() })
  const visitor = await context.newPage()
  await visit(visitor, '/projects', [])
  await visit(visitor, `/profiles/freelancers/${ids.freelancerId}`, ['freelancer'])
  await context.close()
})
