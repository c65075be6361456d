import { expect, test, type ConsoleMessage, type Page } from '@playwright/test'
import { publicPages } from '../../bench/page-weight.ts'
import { expectNoAxeViolations } from './axe'
import { holdScripts } from './hold-scripts'
import { settle, untilHydrated } from './settle'

// The shell and the public site for visitors (issue 4), on the Playwright project's server, with
// JavaScript on (sqlite, postgres) and off (sqlite-no-js).
const main = (page: Page) => page.locator('main')

/** Every URL the page asked for: client navigations fetch `.data`, documents follow redirects. */
function recordRequests(page: Page) {
  const urls: string[] = []
  page.on('request', (r) => urls.push(decodeURIComponent(r.url())))
  return urls
}

test('the home page has the home top bar, the home search, boxes, services, logos and categories', async ({
  page,
}) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  await expect(page.locator('header[data-topbar="home"]')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Engineering and construction')
  await expect(page.getByRole('heading', { name: 'How Workneer works' })).toBeVisible()
  await expect(page.locator('.box')).toHaveCount(4)
  await expect(page.getByRole('heading', { name: 'Services our engineers offer' })).toBeVisible()
  await expect(page.locator('.logo-row img')).toHaveCount(5)
  await expect(page.locator('.category-card')).toHaveCount(6)
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toHaveAttribute(
    'href',
    '/auth/login',
  )
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign up' })).toHaveAttribute(
    'href',
    '/auth/gotosign',
  )
  await expectNoAxeViolations(page)
})

test('other pages have the not-home top bar', async ({ page }) => {
  await page.goto('/faq')
  await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
  await expect(page.locator('header[data-topbar="home"]')).toHaveCount(0)
})

test('the Categories mega-menu shows name and image of each area within 400 × 385 px, and goes to the category', async ({
  page,
}) => {
  await page.goto('/about-us')
  const menu = page.locator('details.megamenu')
  await menu.locator('summary').click()
  const panel = menu.locator('.megamenu-panel')
  await expect(panel).toBeVisible()
  const items = panel.locator('.megamenu-item')
  await expect(items).toHaveCount(6)
  await expect(items.first().locator('img')).toHaveAttribute(
    'src',
    '/images/categories/planning-strategy.svg',
  )
  const box = (await panel.boundingBox())!
  expect(box.height).toBeLessThanOrEqual(400)
  expect(box.width).toBeLessThanOrEqual(385)
  await items.filter({ hasText: /^Engineering$/ }).click()
  await expect(page).toHaveURL(/\/categories\?search=Engineering$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “Engineering”')
})

test('the mega-menu works from the keyboard alone', { tag: '@needs-js' }, async ({ page }) => {
  await page.goto('/faq')
  await untilHydrated(page) // Escape needs the hydrated menus
  const summary = page.locator('details.megamenu > summary')
  await summary.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.megamenu-panel')).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(page.locator('.megamenu-item').first()).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.locator('.megamenu-panel')).toBeHidden()
  await expect(summary).toBeFocused()
})

test('the mobile side menu opens and links work', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/blogs')
  await expect(page.locator('details.megamenu')).toBeHidden()
  await page.getByRole('banner').locator('details.sidemenu > summary').click()
  const nav = page.getByRole('navigation', { name: 'Menu' })
  await expect(nav).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Log in' })).toBeVisible()
  await nav.getByRole('link', { name: 'FAQ' }).click()
  await expect(page).toHaveURL(/\/faq$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions')
})

test('a footer category goes to /categories with the category as the search term', async ({ page }) => {
  await page.goto('/')
  const footer = page.getByRole('contentinfo')
  await expect(footer).toContainText('All rights reserved.')
  await footer.getByRole('link', { name: 'Construction Economics' }).click()
  await expect(page).toHaveURL(/\/categories\?search=Construction(%20|\+)Economics$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “Construction Economics”')
  await expect(main(page).locator('.area')).toHaveCount(1)
})

test('the home search goes to the freelancer search or the project list, an empty term kept as all', async ({
  page,
}) => {
  const urls = recordRequests(page)
  await page.goto('/')
  const hero = page.locator('.hero')
  await hero.getByRole('button', { name: 'Search' }).click()
  await expect
    .poll(() => urls.some((u) => u.includes('/freelancers/freelancersearch') && u.includes('search=all')))
    .toBe(true)
  await page.goto('/')
  await page.locator('.hero select').selectOption('projects')
  await page.locator('.hero input[type="search"]').fill('bridge design')
  await page.locator('.hero input[type="search"]').press('Enter')
  await expect
    .poll(() => urls.some((u) => u.includes('/projects/getprojects') && /search=bridge( |\+)design/.test(u)))
    .toBe(true)
})

// On a slow connection the user may choose and type before the JavaScript arrives: hydration must
// keep what they gave the (controlled) fields, not put the server's values back.
test(
  'the home search keeps a choice and a term given before the page was hydrated',
  { tag: '@needs-js' },
  async ({ page }) => {
    const urls = recordRequests(page)
    const release = await holdScripts(page)
    await page.goto('/', { waitUntil: 'domcontentloaded' })
    await page.locator('.hero select').selectOption('projects')
    await page.locator('.hero input[type="search"]').fill('bridge design')
    release()
    await untilHydrated(page) // hydrated
    await expect(page.locator('.hero select')).toHaveValue('projects')
    await expect(page.locator('.hero input[type="search"]')).toHaveValue('bridge design')
    await page.locator('.hero').getByRole('button', { name: 'Search' }).click()
    await expect
      .poll(() =>
        urls.some((u) => u.includes('/projects/getprojects') && /search=bridge( |\+)design/.test(u)),
      )
      .toBe(true)
  },
)

for (const [path, heading] of [
  ['/about-us', 'About us'],
  ['/why-workneer', 'Why Workneer'],
  ['/faq', 'Frequently asked questions'],
  ['/userService', 'Services our engineers offer'],
  ['/contact-us', 'Contact us'],
  ['/auth/terms-and-conditions', 'Terms and conditions'],
  ['/categories', 'Categories'],
  ['/auth/login', 'Log in'],
  ['/auth/gotosign', 'Sign up'],
  ['/auth/forgot-password', 'Forgot your password?'],
  ['/auth/reset-password?token=a-token-that-is-long-enough', 'Choose a new password'],
  ['/auth/verify-email', 'Confirm your email address'],
] as const) {
  test(`public page ${path}`, async ({ page }) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(heading))
    await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
    await expect(page.getByRole('contentinfo')).toBeVisible()
    await expectNoAxeViolations(page)
  })
}

test('the FAQ answers open without JavaScript', async ({ page }) => {
  await page.goto('/faq')
  const first = main(page).locator('details.faq-item').first()
  await first.locator('summary').click()
  await expect(first.locator('p')).toBeVisible()
})

test('the blog pages through its posts and opens one', async ({ page }) => {
  await page.goto('/blogs')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog')
  const posts = main(page).locator('.post-card')
  const count = await posts.count()
  expect(count).toBeGreaterThan(0)
  expect(count).toBeLessThanOrEqual(6)
  await expectNoAxeViolations(page)
  const pagination = page.getByRole('navigation', { name: 'Blog pages' })
  if (await pagination.count()) {
    await pagination.getByRole('link', { name: /Next page/ }).click()
    await expect(page).toHaveURL(/\/blogs\?page=2$/)
    await expect(main(page)).toContainText('Page 2 of')
  }
  const title = (await main(page).locator('.post-card h2 a').first().textContent())!
  await main(page).locator('.post-card h2 a').first().click()
  await expect(page).toHaveURL(/\/blogs\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expectNoAxeViolations(page)
})

test('the language switcher in the top bar and in the footer works, and is kept in the lang cookie', async ({
  page,
  context,
}) => {
  await page.goto('/faq')
  await page.getByRole('banner').locator('details.language-switcher > summary').click()
  await page.getByRole('banner').getByRole('button', { name: 'Deutsch' }).click()
  await expect(page).toHaveURL(/\/faq$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Häufige Fragen')
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('de')
  await page.getByRole('contentinfo').locator('details.language-switcher > summary').click()
  await page.getByRole('contentinfo').getByRole('button', { name: 'Italiano' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Domande frequenti')
  expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('it')
  await page.goto('/')
  await expect(page.locator('.hero h1')).toHaveText(
    'Professionisti di ingegneria ed edilizia, quando ti servono',
  )
})

test('newsletter: a bad address does nothing and shows nothing', async ({ page }) => {
  await page.goto('/why-workneer')
  const footer = page.getByRole('contentinfo')
  await footer.getByLabel('Your email address').fill('not-an-address@nowhere')
  await footer.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page).toHaveURL(/\/why-workneer$/)
  await settle(page)
  await expect(page.locator('[data-notice]')).toHaveCount(0)
})

test('newsletter: subscribing shows the reply with a party emoji and asks to confirm by mail, the same the second time', async ({
  page,
}) => {
  const address = `reader.${test.info().project.name.replace(/\W/g, '')}.${Date.now()}@example.com`
  const notice = 'Subscribed Successfully! 🎉 Please confirm it with the link we have just emailed you.'
  await page.goto('/faq')
  const footer = page.getByRole('contentinfo')
  await footer.getByLabel('Your email address').fill(address)
  await footer.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page.locator('[data-notice="success"]')).toHaveText(notice)
  await expect(page.locator('[data-notice] .toast-title')).toHaveCount(0)
  await expect(page).toHaveURL(/\/faq$/)
  // Asking again (the address now waits for its confirmation) tells nothing new (decision 092).
  await page.getByRole('contentinfo').getByLabel('Your email address').fill(address.toUpperCase())
  // The first notice is still on screen while the second answer travels: wait for the answer and
  // for the page that shows it (which clears its flash cookie), or the next page may receive it.
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/newsletter'),
  )
  await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click()
  await answered
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'flash')).toBe(false)
  await expect(page.locator('[data-notice="success"]')).toHaveText(notice)
  // The notice is shown once: the next page has none.
  await page.goto('/faq')
  await expect(page.locator('[data-notice]')).toHaveCount(0)
})

test('newsletter in German', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'de', url: baseURL! }])
  await page.goto('/')
  const footer = page.getByRole('contentinfo')
  await footer
    .getByLabel('Ihre E-Mail-Adresse')
    .fill(`leser.${Date.now()}.${test.info().project.name.replace(/\W/g, '')}@example.de`)
  await footer.getByRole('button', { name: 'Abonnieren' }).click()
  await expect(page.locator('[data-notice="success"]')).toHaveText(
    'Erfolgreich abonniert! 🎉 Bitte bestätigen Sie Ihr Abonnement noch über den Link, den wir Ihnen gerade per E-Mail geschickt haben.',
  )
})

test('the contact form checks its fields on the server, shows the 400 notice of the API, and reaches the support inbox', async ({
  page,
}) => {
  await page.goto('/contact-us')
  const form = main(page)
  await form.getByLabel('Your name').fill('  a ')
  await form.getByLabel('Email address').fill('ada@example.c')
  await form.getByLabel('Subject').fill('Invoices')
  await form.getByLabel('Message').fill('Where do I find the invoices of May?')
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(form.getByText('The name must be at least 2 characters long.')).toBeVisible()
  await form.getByLabel('Your name').fill('Ada Lovelace')
  await form.getByRole('button', { name: 'Send message' }).click()
  // The browser's check passes (text@text.text); the API's stricter one answers 400 "Invalid Info".
  const notice = form.getByRole('alert').filter({ hasText: 'Invalid Info' })
  await expect(notice).toBeVisible()
  await expect(notice).toContainText('must be a valid email address')
  await form.getByLabel('Email address').fill('ada@example.com')
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(page.locator('[data-notice="success"]')).toHaveText(
    'Thank you! Your message has reached our support team; we will answer by email.',
  )
  await expect(page).toHaveURL(/\/contact-us$/)
})

test('404: an unknown path goes to the not-found page, which answers 404', async ({ page }) => {
  await page.goto('/projects-that-do-not-exist/x')
  await expect(page).toHaveURL(/\/auth\/not-found$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  const response = await page.goto('/auth/not-found')
  expect(response?.status()).toBe(404)
  await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
  await expectNoAxeViolations(page)
})

test('403: the unauthorized page answers 403 inside the layout', async ({ page }) => {
  const response = await page.goto('/auth/unauthorized')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
  await expectNoAxeViolations(page)
})

for (const [lang, invalidInfo, serverError, otherStatus] of [
  ['en', 'Invalid Info', 'Server Error', 'Something went wrong (because of backend)'],
  ['de', 'Ungültige Angaben', 'Serverfehler', 'Etwas ist schiefgelaufen (Fehler im Backend)'],
] as const) {
  test(`400, 500 and other statuses render the notices of the error catalogue inside the layout (${lang})`, async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: 'lang', value: lang, url: baseURL! }])
    let response = await page.goto('/_test/status/400')
    expect(response?.status()).toBe(400)
    const alert = main(page).getByRole('alert')
    await expect(alert.getByRole('heading')).toHaveText(invalidInfo)
    // The server's validation messages, joined by ".\n" (docs/product.md §8), as the API wrote them.
    expect(await alert.locator('p').first().innerText()).toBe('Budget must be positive.\nTitle is required')
    await expect(page.locator('header[data-topbar="visitor"]')).toBeVisible()
    response = await page.goto('/_test/status/500')
    expect(response?.status()).toBe(500)
    await expect(alert.getByRole('heading')).toHaveText(serverError)
    if (lang === 'en')
      await expect(alert).toContainText('Seems like something went wrong. please contact your administrator')
    await page.goto('/_test/status/418')
    await expect(alert.getByRole('heading')).toHaveText(otherStatus)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    await expectNoAxeViolations(page)
  })
}

// Pages that answer an error status on purpose; for these Chromium prints one line about the
// document itself ("Failed to load resource: … status of 404"), which is the only message allowed.
const errorStatusPages: Record<string, number> = {
  '/auth/not-found': 404,
  '/auth/unauthorized': 403,
  '/auth/verify-email?token=bench-invalid-token': 400,
  '/auth/confirm-email?token=bench-invalid-token': 400,
  '/auth/oidc/callback?code=forged&state=forged': 400,
}

// The site's own service worker registers here as in production (the config blocks it elsewhere,
// decision 337): its registration must print nothing either.
test.describe(() => {
  test.use({ serviceWorkers: 'allow' })
  test(
    'production prints nothing to the browser console on any public page',
    { tag: '@needs-js' },
    async ({ page, context, baseURL }) => {
      expect(publicPages.length).toBeGreaterThanOrEqual(21)
      for (const entry of publicPages) {
        const { path, cookies = {} } = typeof entry === 'string' ? { path: entry } : entry
        await context.clearCookies()
        await context.addCookies(
          Object.entries(cookies).map(([name, value]) => ({ name, value, url: baseURL + path })),
        )
        const messages: string[] = []
        const onConsole = (m: ConsoleMessage) =>
          messages.push(`${m.type()}: ${m.text()} @ ${m.location().url}`)
        const onError = (e: Error) => messages.push(`pageerror: ${e.message}`)
        page.on('console', onConsole)
        page.on('pageerror', onError)
        const response = await page.goto(path, { waitUntil: 'networkidle' })
        page.off('console', onConsole)
        page.off('pageerror', onError)
        const status = errorStatusPages[path] ?? 200
        expect(response?.status(), path).toBe(status)
        expect(new URL(page.url()).pathname, path).toBe(new URL(baseURL + path).pathname)
        expect(messages, path).toEqual(
          status === 200
            ? []
            : [
                `error: Failed to load resource: the server responded with a status of ${status} () @ ${response!.url()}`,
              ],
        )
      }
    },
  )
})
