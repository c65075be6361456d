import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { untilHydrated } from './settle'

// Issue 4's "Done when" in a second language (German, by the lang cookie), with JavaScript on and
// off: the visitor top bars, the mega-menu, the home search, the footer shortcut, the public pages,
// the 403 and 404 pages; and the menus by keyboard alone. shell.spec.ts checks the same in English,
// and the notices of the error catalogue in both languages.
test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'de', url: baseURL! }])
})

const main = (page: Page) => page.locator('main')
const inGerman = async (page: Page) => {
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('contentinfo')).toContainText('Alle Rechte vorbehalten.')
}

test('German: the home bar on the home page, the visitor bar elsewhere, with Anmelden and Registrieren', async ({
  page,
}) => {
  await page.goto('/')
  const home = page.locator('header[data-topbar="home"]')
  await expect(home).toBeVisible()
  await expect(home.getByRole('link', { name: 'Anmelden' })).toHaveAttribute('href', '/auth/login')
  await expect(home.getByRole('link', { name: 'Registrieren' })).toHaveAttribute('href', '/auth/gotosign')
  await expect(main(page).getByRole('heading', { name: 'So funktioniert Workneer' })).toBeVisible()
  await inGerman(page)
  await expectNoAxeViolations(page)
  await page.goto('/blogs')
  await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
  await expect(page.locator('header[data-topbar="home"]')).toHaveCount(0)
})

test('German: the Kategorien mega-menu names each area and goes to it', async ({ page }) => {
  await page.goto('/faq')
  const menu = page.locator('details.megamenu')
  await expect(menu.locator('summary')).toContainText('Kategorien')
  await menu.locator('summary').click()
  const items = menu.locator('.megamenu-item')
  await expect(items).toHaveCount(6)
  await expect(items.first()).toContainText('Planung und Strategie')
  await expect(items.first().locator('img')).toHaveAttribute('src', /\/images\/categories\/.+\.svg$/)
  await items.first().click()
  await expect(page).toHaveURL(/\/categories\?search=Planung(%20|\+)und(%20|\+)Strategie$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ergebnisse für „Planung und Strategie“')
})

test('German: the home search keeps an empty term as all, and searches projects', async ({ page }) => {
  const urls: string[] = []
  page.on('request', (r) => urls.push(decodeURIComponent(r.url())))
  await page.goto('/')
  await page.locator('.hero').getByRole('button', { name: 'Suchen' }).click()
  await expect
    .poll(() => urls.some((u) => u.includes('/freelancers/freelancersearch') && u.includes('search=all')))
    .toBe(true)
  await page.goto('/')
  await page.locator('.hero').getByLabel('Suchen in').selectOption('projects')
  await page.locator('.hero').getByRole('button', { name: 'Suchen' }).click()
  await expect
    .poll(() => urls.some((u) => u.includes('/projects/getprojects') && u.includes('search=all')))
    .toBe(true)
})

test('German: a footer category goes to /categories with its name as the search term', async ({ page }) => {
  await page.goto('/about-us')
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'Planung und Strategie' })
  await link.click()
  await expect(page).toHaveURL(/\/categories\?search=Planung(%20|\+)und(%20|\+)Strategie$/)
  await expect(main(page).locator('.area')).toHaveCount(1)
  await inGerman(page)
})

for (const [path, heading] of [
  ['/about-us', null],
  ['/why-workneer', null],
  ['/blogs', 'Blog'],
  ['/blogs/1', null],
  ['/faq', 'Häufige Fragen'],
  ['/userService', 'Leistungen unserer Ingenieure'],
  ['/contact-us', null],
  ['/categories', 'Kategorien'],
  ['/auth/terms-and-conditions', null],
  ['/auth/login', 'Anmelden'],
  ['/auth/gotosign', 'Registrieren'],
  ['/auth/forgot-password', 'Passwort vergessen?'],
  ['/auth/reset-password?token=a-token-that-is-long-enough', null],
  ['/auth/verify-email', null],
] as const) {
  test(`German: public page ${path}`, async ({ page }) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    const h1 = page.getByRole('heading', { level: 1 })
    if (heading) await expect(h1).toHaveText(heading)
    else await expect(h1).not.toBeEmpty()
    await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
    await inGerman(page)
    await expectNoAxeViolations(page)
  })
}

test('German: 404 and 403 pages answer their status inside the layout', async ({ page }) => {
  await page.goto('/gibt-es-nicht')
  await expect(page).toHaveURL(/\/auth\/not-found$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seite nicht gefunden')
  await inGerman(page)
  await expectNoAxeViolations(page)
  const response = await page.goto('/auth/unauthorized')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kein Zugriff')
  await inGerman(page)
  await expectNoAxeViolations(page)
})

// The menus are <details>: Enter on the focused summary opens them in every browser, with or
// without JavaScript; Escape closing one (focus back on its summary) is the script's part.
test('German: the language switcher works from the keyboard alone', async ({ page, context }) => {
  await page.goto('/faq')
  const summary = page.getByRole('banner').locator('details.language-switcher > summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  const english = page.getByRole('banner').getByRole('button', { name: 'English' })
  await expect(english).toBeVisible()
  await english.focus()
  await expect(english).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions')
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('en')
})

test('German: the mobile side menu works from the keyboard alone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/blogs')
  const summary = page.getByRole('banner').locator('details.sidemenu > summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  const nav = page.getByRole('navigation', { name: 'Menü' })
  await expect(nav).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(nav.getByRole('link').first()).toBeFocused()
  const faq = nav.getByRole('link', { name: 'Häufige Fragen' })
  await faq.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/faq$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Häufige Fragen')
})

test('German: Escape closes an open menu and returns focus to it', { tag: '@needs-js' }, async ({ page }) => {
  await page.goto('/faq')
  await untilHydrated(page) // Escape needs the hydrated menus
  for (const selector of ['details.megamenu', 'details.language-switcher']) {
    const summary = page.getByRole('banner').locator(`${selector} > summary`)
    await summary.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('banner').locator(selector)).toHaveAttribute('open', '')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('banner').locator(selector)).not.toHaveAttribute('open', '')
    await expect(summary).toBeFocused()
  }
})
