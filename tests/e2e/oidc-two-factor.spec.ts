import { expect, test, type Browser, type Page } from '@playwright/test'
import { openDatabase } from '#server/db/database.ts'
import { enableForTests, totpCode } from '#server/modules/identity/second-factor.ts'
import { writeAccounts, type Account } from '../support/accounts.ts'
import { startOidcProvider } from '../support/oidc-provider.ts'
import { expectNoAxeViolations } from './axe'
import { startPrivateServer, type PrivateServer } from './private-server.ts'
import { jsEnabled } from './project-js'

// Decision 260 through a real OpenID provider on loopback, JavaScript on and off: the provider's
// answer is the first step only. An account with an authenticator app is asked for its code before
// any session exists (a wrong code refused on its field, the right one signs in, a recovery code
// works once); a SuperAdmin without an app is sent to set one up, as after a password.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const SECRET = 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU'
const RECOVERY = ['oidc-e2e-recovery-1', 'oidc-e2e-recovery-2']
const withApp = {
  email: 'olga.oidc@example.test',
  firstName: 'Olga',
  lastName: 'Oidc',
  roles: [3],
  accountType: 'company',
} satisfies Account
const bareAdmin = {
  email: 'ada.oidc.admin@example.test',
  firstName: 'Ada',
  lastName: 'Admin',
  roles: [1],
  accountType: 'client',
} satisfies Account
let oidc: Awaited<ReturnType<typeof startOidcProvider>>
let server: PrivateServer | undefined
let base = ''
const main = (page: Page) => page.locator('main')

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startPrivateServer(testInfo, {
    name: 'oidc2fa',
    async env(address) {
      oidc = await startOidcProvider({ redirectUris: [`${address}/auth/oidc/callback`] })
      return oidc.env
    },
    async beforeStart(target) {
      const db = await openDatabase(target)
      try {
        const [id] = await writeAccounts(db, [withApp, bareAdmin], 'not used by these tests 42')
        await enableForTests(db.db, id, SECRET, RECOVERY, process.env.AUTH_SECRET)
      } finally {
        await db.close()
      }
    },
  })
  base = server.base
})

test.afterAll(async ({}, testInfo) => {
  await testInfo.attach('server-output', { body: server?.output() ?? '', contentType: 'text/plain' })
  await server?.stop()
  await oidc?.close()
})

async function newPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  return context.newPage()
}

/** Login page → the provider (its own screen the first time in this browser) → back to the site. */
async function throughProvider(page: Page, email: string) {
  await page.goto(`${base}/auth/login`)
  await main(page).getByRole('link', { name: 'Continue with Loopback ID' }).click()
  if (
    await page
      .locator('input[name="login"]')
      .isVisible()
      .catch(() => false)
  ) {
    await page.locator('input[name="login"]').fill(email)
    await page.locator('input[name="password"]').fill('anything')
    await page.locator('button[type="submit"]').click()
  }
}

async function answer(page: Page, code: string) {
  await main(page).getByLabel('Code', { exact: true }).fill(code)
  await main(page).getByRole('button', { name: 'Verify and sign in' }).click()
}

async function logOut(page: Page) {
  await page.goto(`${base}/profile/account-settings`)
  await main(page).getByTestId('logout').click()
  await expect(page).toHaveURL(/\/$|\/auth\/login/)
}

test('an account with an authenticator app signs in through the provider in two steps', async ({
  browser,
}) => {
  const page = await newPage(browser)
  await throughProvider(page, withApp.email)
  await expect(page).toHaveURL(`${base}/auth/second-factor`)
  await expect(main(page).locator('h1')).toHaveText('Two-step sign-in')
  await expectNoAxeViolations(page)
  // Nothing is open yet: the dashboard still asks for a sign-in.
  const peek = await page.context().request.get(`${base}/dashboard`, { maxRedirects: 0 })
  expect(peek.headers().location).toMatch(/\/auth\/login/)

  await answer(page, totpCode(SECRET) === '000000' ? '111111' : '000000')
  await expect(main(page).locator('.field-error')).toContainText('That code is not valid.')
  await expect(page).toHaveURL(`${base}/auth/second-factor`)
  await expectNoAxeViolations(page)
  await answer(page, totpCode(SECRET))
  await expect(page).toHaveURL(`${base}/dashboard`)
  await logOut(page)

  // A recovery code lets her in once; the next time it is refused and another one works.
  await throughProvider(page, withApp.email)
  await expect(page).toHaveURL(`${base}/auth/second-factor`)
  await answer(page, RECOVERY[0])
  await expect(page).toHaveURL(`${base}/dashboard`)
  await logOut(page)
  await throughProvider(page, withApp.email)
  await answer(page, RECOVERY[0])
  await expect(main(page).locator('.field-error')).toContainText('That code is not valid.')
  await answer(page, RECOVERY[1])
  await expect(page).toHaveURL(`${base}/dashboard`)
  await page.context().close()
})

test('a SuperAdmin without an app who signs in through the provider is sent to set one up', async ({
  browser,
}) => {
  const page = await newPage(browser)
  await throughProvider(page, bareAdmin.email)
  await expect(page).toHaveURL(`${base}/profile/account-settings/two-factor`)
  await expect(main(page).getByText('Required for administrators')).toBeVisible()
  await page.goto(`${base}/admin/complaints`)
  await expect(page).toHaveURL(`${base}/profile/account-settings/two-factor`)
  await page.context().close()
})
