import { expect, test, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { openSection } from './profile-editor'

// Issue 15's small findings, end to end, with JavaScript on and off, on SQLite and PostgreSQL: a
// public profile line without a leading separator, a freelancer found by name (and counted in the
// page's plural forms), the top bar's search box empty on every page, and its placeholder whole in
// every language.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const server = useShellServer()

const idOf = async (email: string) =>
  (
    await server()
      .db.db.selectFrom('app_user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id
const topSearch = (page: Page) => page.locator('.topbar-search')

test('a freelancer without a place or reviews has a profile line that starts with its first part', async ({
  browser,
}) => {
  const page = await signInAs(browser, server().base, accounts.freelancer.email)
  await page.goto(`${server().base}/profile`)
  await openSection(page, 'headline')
  const form = page.locator('#form-titleOverview')
  await form.getByLabel('Professional title').fill('Structural Engineer – Concrete')
  await form.getByLabel('Overview').fill('Reinforced concrete and steel to Eurocodes.')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Success Operation').first()).toBeVisible()
  await page.goto(`${server().base}/profiles/freelancers/${await idOf(accounts.freelancer.email)}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Fred Freelancer' })).toBeVisible()
  await expect(page.locator('.profile-head p.muted')).toHaveText('No reviews yet')
  await expectNoAxeViolations(page)
  await page.context().close()
})

test('a client finds a freelancer by name, counted in the plural forms of the page', async ({ browser }) => {
  const page = await signInAs(browser, server().base, accounts.client.email)
  // From the top bar (a GET form without JavaScript), by last name.
  await topSearch(page).getByRole('combobox', { name: 'Search term' }).fill('Freelancer')
  await topSearch(page).getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/\/freelancers\/freelancersearch\?search=Freelancer/)
  await expect(page.getByRole('heading', { name: '1 freelancer found' })).toBeVisible()
  await expect(page.locator('.hit').getByRole('link', { name: 'Fred Freelancer', exact: true })).toBeVisible()
  // From Find Freelancers' own field, by first and last name, in any case and as the start of words.
  const filters = page.getByRole('form', { name: 'Filters' })
  await filters.getByLabel('Keywords').fill('fred freel')
  await filters.getByRole('button', { name: 'Search' }).click()
  await expect(page.locator('.hit').getByRole('link', { name: 'Fred Freelancer', exact: true })).toBeVisible()
  await expectNoAxeViolations(page)
  // In Russian: one freelancer is "Найден 1 фрилансер", not "Найдено фрилансеров: 1".
  await page.context().addCookies([{ name: 'lang', value: 'ru', url: server().base }])
  await page.goto(`${server().base}/freelancers?search=Fred`)
  await expect(page.getByRole('heading', { name: 'Найден 1 фрилансер' })).toBeVisible()
  await page.context().close()
})

test('the top bar search box is empty on every page, not holding the last term @needs-js', async ({
  browser,
}) => {
  const page = await signInAs(browser, server().base, accounts.client.email)
  const term = topSearch(page).getByRole('combobox', { name: 'Search term' })
  const kind = topSearch(page).getByLabel('Search in')
  await kind.selectOption('projects')
  await term.fill('concrete')
  await term.press('Enter')
  await expect(page).toHaveURL(/\/projects\/getprojects\?search=concrete/)
  await expect(term).toHaveValue('')
  await expect(kind).toHaveValue('workneerer')
  // A term typed but not searched does not follow the client to the next page either.
  await term.fill('steel')
  await page.locator('header[data-topbar]').getByRole('link', { name: 'Create Project' }).click()
  await expect(page).toHaveURL(/\/projects\/create$/)
  await expect(term).toHaveValue('')
  await page.context().close()
})

// The placeholder's text against the room its box gives it, in the box's own font.
const placeholderRoom = (page: Page, box: string) =>
  page.locator(`${box} input[type="search"]`).evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input)
    const context = document.createElement('canvas').getContext('2d')!
    context.font = style.font
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    return {
      text: input.placeholder,
      needed: Math.ceil(context.measureText(input.placeholder).width),
      room: Math.floor(room),
    }
  })

test('the search placeholder is whole in every language, in the signed-in bars and the home page', async ({
  browser,
}) => {
  const cut: string[] = []
  const check = (where: string, { text, needed, room }: { text: string; needed: number; room: number }) => {
    if (process.env.SHOW_ROOM) console.log(`${where}: "${text}" needs ${needed} px, has ${room}`)
    if (needed > room) cut.push(`${where}: "${text}" needs ${needed} px, the box has ${room}`)
  }
  for (const [account, width] of [
    [accounts.client.email, 1280],
    [accounts.freelancer.email, 1280],
    [accounts.client.email, 1100],
  ] as const) {
    const page = await signInAs(browser, server().base, account)
    await page.setViewportSize({ width, height: 800 })
    for (const lang of ['en', 'es', 'de', 'it', 'ru']) {
      await page.context().addCookies([{ name: 'lang', value: lang, url: server().base }])
      await page.goto(`${server().base}/faq`)
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      check(
        `${lang}, ${account.split('.')[0]}'s bar at ${width} px`,
        await placeholderRoom(page, '.topbar-search'),
      )
    }
    await page.context().close()
  }
  const visitor = await browser.newContext({ javaScriptEnabled: jsEnabled() })
  const home = await visitor.newPage()
  for (const lang of ['en', 'es', 'de', 'it', 'ru']) {
    await visitor.addCookies([{ name: 'lang', value: lang, url: server().base }])
    await home.goto(`${server().base}/`)
    check(`${lang}, home page`, await placeholderRoom(home, '.hero'))
  }
  await visitor.close()
  expect(cut).toEqual([])
})

// Issue 39, item 11: the top bar's button is one the reader may use, and the sign-in page starts
// in its first field, with JavaScript on and off.
test("a SuperAdmin's top bar leads to the admin area and never offers Create Project", async ({
  browser,
}) => {
  const page = await signInAs(browser, server().base, accounts.admin.email)
  const bar = page.locator('header.topbar')
  await expect(bar.getByRole('link', { name: 'Create Project' })).toHaveCount(0)
  await bar.getByRole('link', { name: 'Administration' }).click()
  await expect(page).toHaveURL(/\/admin$/)
  await page.context().close()
})

test('the sign-in page starts with the cursor in its email field', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() })
  const page = await context.newPage()
  await page.goto(`${server().base}/auth/login`)
  await expect(page.locator('main').getByLabel('Email')).toBeFocused()
  await context.close()
})
