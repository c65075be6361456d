import fs from 'node:fs'
import http from 'node:http'
import { expect, test, type Page } from '@playwright/test'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { startOidcProvider } from '../support/oidc-provider.ts'
import { startPrivateServer, type PrivateServer } from './private-server.ts'
import { jsEnabled } from './project-js'

// Identity end to end, in Chromium, with JavaScript on and off: this file starts its own server
// (built app) wired to a real SMTP server and a real OpenID provider, all on 127.0.0.1, on the
// database of the Playwright project (SQLite, or a fresh PostgreSQL database).
test.describe.configure({ mode: 'serial', timeout: 90_000 })

const PASSWORD = 'steel beams and concrete'
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let oidc: Awaited<ReturnType<typeof startOidcProvider>>
let server: PrivateServer | undefined
let base = ''

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  smtp = await startSmtpServer()
  server = await startPrivateServer(testInfo, {
    name: 'identity',
    async env(address) {
      oidc = await startOidcProvider({ redirectUris: [`${address}/auth/oidc/callback`] })
      return { LOG_LEVEL: process.env.IDENTITY_E2E_LOG_LEVEL ?? 'warn', SMTP_URL: smtp.url, ...oidc.env }
    },
  })
  base = server.base
})

test.afterAll(async ({}, testInfo) => {
  const output = server?.output() ?? ''
  await testInfo.attach('server-output', { body: output, contentType: 'text/plain' })
  if (process.env.IDENTITY_E2E_LOG) fs.writeFileSync(process.env.IDENTITY_E2E_LOG, output)
  await server?.stop()
  await smtp?.close()
  await oidc?.close()
})

const suffix = () => test.info().project.name.replace(/\W+/g, '')

async function logIn(page: Page, email: string, password: string) {
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(password)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
}

async function logOut(page: Page) {
  await page.goto(`${base}/profile/account-settings`)
  await page.getByTestId('logout').click()
  await page.waitForURL(`${base}/`)
}

async function signUpAndVerify(page: Page, kind: 'client' | 'company' | 'freelancer', email: string) {
  const label = { client: 'Individual client', company: 'Company', freelancer: 'Freelancer' }[kind]
  await page.goto(`${base}/auth/gotosign`)
  await page.locator('main').getByLabel(label, { exact: false }).first().check()
  await page.locator('main').getByLabel('First name').fill('Nikola')
  await page.locator('main').getByLabel('Last name').fill('Tesla')
  if (kind === 'company') await page.locator('main').getByLabel('Company name').fill('Tesla Structures Ltd')
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.locator('main').getByRole('checkbox').check()
  await page.locator('main').getByRole('button', { name: 'Create my account' }).click()
  await expect(page).toHaveURL(/\/auth\/verify-email\?sent=/)
  await expect(page.getByText(`We have sent an email to ${email}`)).toBeVisible()
  const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/verify-email?token='))
  expect(mail.subject).toBe('Confirm your email address for Workneer')
  await page.goto(linkIn(mail, '/auth/verify-email'))
  await expect(page.getByText('Your email address is confirmed. You can sign in now.')).toBeVisible()
  return mail
}

for (const [kind, label, bar, roleName] of [
  ['client', 'Individual client', 'client', 'Individual client'],
  ['company', 'Company', 'client', 'Company'],
  ['freelancer', 'Freelancer', 'freelancer', 'Freelancer'],
] as const) {
  test(`signs up as ${kind}, verifies the email from the mail, logs in, sees the role, logs out`, async ({
    page,
  }) => {
    const email = `${kind}.${suffix()}@example.test`
    void label
    const mail = await signUpAndVerify(page, kind, email)
    // The link works once.
    await page.goto(linkIn(mail, '/auth/verify-email'))
    await expect(page.getByText('Invalid or expired token')).toBeVisible()

    await page.goto(`${base}/auth/login`)
    await logIn(page, email, 'not the password at all')
    await expect(page.getByText('Invalid email or password.')).toBeVisible()
    await logIn(page, email, PASSWORD)
    await page.waitForURL(`${base}/dashboard`)
    await expect(page.locator(`header[data-topbar="${bar}"]`)).toBeVisible()

    await page.goto(`${base}/profile/account-settings`)
    await expect(page.getByTestId('account-role')).toHaveText(roleName)
    await logOut(page)
    await expect(page.locator('header[data-topbar="freelancer"], header[data-topbar="client"]')).toHaveCount(
      0,
    )
    // The session is gone: the guarded page sends the visitor to log in again.
    await page.goto(`${base}/profile/account-settings`)
    await expect(page).toHaveURL(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  })
}

test('shows the first error of each field and keeps nothing when the sign-up is invalid', async ({
  page,
}) => {
  await page.goto(`${base}/auth/gotosign`)
  await page.locator('main').getByLabel('Email').fill('not-an-email')
  await page.locator('main').getByLabel('Password', { exact: true }).fill('password123')
  await page.locator('main').getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByText('Enter a valid email address.')).toBeVisible()
  await expect(page.getByText('You need to accept the terms and conditions.')).toBeVisible()
  await expect(
    page.getByText('This password is too common. Choose one that is harder to guess.'),
  ).toBeVisible()
  await expect(page).toHaveURL(`${base}/auth/gotosign`)
})

test('resets a forgotten password from the mail, and returns to the page asked for after login', async ({
  page,
}) => {
  const email = `reset.${suffix()}@example.test`
  await signUpAndVerify(page, 'freelancer', email)
  await page.goto(`${base}/profile/account-settings`)
  await expect(page).toHaveURL(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  await page.locator('main').getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible()
  const since = smtp.mails.length
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByRole('button', { name: 'Send me a link' }).click()
  await expect(page.getByText('If this address has an account, we have sent it a link')).toBeVisible()
  const mail = await smtp.waitFor(email, (m) => m.text.includes('/auth/reset-password?token='), 15_000, since)
  await page.goto(linkIn(mail, '/auth/reset-password'))
  await page.locator('main').getByLabel('New password', { exact: true }).fill('short')
  await page.locator('main').getByLabel('Repeat the new password').fill('short')
  await page.locator('main').getByRole('button', { name: 'Save the new password' }).click()
  await expect(page.getByText('Use at least 10 characters.')).toBeVisible()
  await page.locator('main').getByLabel('New password', { exact: true }).fill('a fresh and longer passphrase')
  await page.locator('main').getByLabel('Repeat the new password').fill('a fresh and longer passphrase')
  await page.locator('main').getByRole('button', { name: 'Save the new password' }).click()
  await expect(page).toHaveURL(/\/auth\/login/)

  await page.goto(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  await logIn(page, email, PASSWORD)
  await expect(page.getByText('Invalid email or password.')).toBeVisible()
  await logIn(page, email, 'a fresh and longer passphrase')
  await expect(page).toHaveURL(`${base}/profile/account-settings`)
  await expect(page.getByTestId('account-role')).toHaveText('Freelancer')

  // Account settings: change the phone; the completeness follows.
  await page.locator('main').getByLabel('Phone number (optional)').fill('+44 20 7946 0000')
  await page.locator('main').getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Success Operation')).toBeVisible()
  await expect(page.getByText('Your account details are saved.')).toBeVisible()
  await expect(page.getByTestId('account-summary')).toContainText('75%')
  // The points say what they are and how they are earned.
  await expect(page.getByTestId('account-summary')).toContainText(
    /Reputation points\d+Earned once each: 10 for a confirmed email address/,
  )
  // A new password: the notice says what happened beneath the catalogue's title.
  const passwordForm = page.locator('section[aria-labelledby="password-heading"]')
  await passwordForm.getByLabel('Current password').fill('a fresh and longer passphrase')
  await passwordForm.getByLabel('New password', { exact: true }).fill('the freshest of all passphrases')
  await passwordForm.getByLabel('Repeat the new password').fill('the freshest of all passphrases')
  await passwordForm.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Success Operation')).toBeVisible()
  await expect(page.getByText('Your password is changed. You stay signed in here')).toBeVisible()
  await logOut(page)
})

test('guesses from elsewhere lock out new devices only: the browser that signed in before still gets in', async ({
  page,
  browser,
}) => {
  const email = `owner.${suffix()}@example.test`
  await signUpAndVerify(page, 'client', email)
  await page.goto(`${base}/auth/login`)
  await logIn(page, email, PASSWORD)
  await page.waitForURL(`${base}/dashboard`)
  // The remembered-device cookie: httpOnly, only for the sign-in pages, kept after signing out.
  const device = (await page.context().cookies()).find((c) => c.name === 'device')
  expect(device).toMatchObject({ httpOnly: true, path: '/auth', sameSite: 'Lax' })
  await logOut(page)
  expect((await page.context().cookies()).some((c) => c.name === 'device')).toBe(true)

  // Someone guesses through the API until the address's limit answers.
  const statuses = []
  for (let i = 0; i < 9; i++) {
    const r = await fetch(`${base}/api/v1/identity/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: `guess ${i} of many` }),
    })
    statuses.push(r.status)
    if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
  }
  expect(statuses).toEqual([...Array(8).fill(401), 429])

  // A browser that never signed in is refused, even with the right password: 429 with Retry-After.
  const stranger = await browser.newContext({ javaScriptEnabled: jsEnabled() })
  const other = await stranger.newPage()
  await other.goto(`${base}/auth/login`)
  const [refused] = await Promise.all([
    other.waitForResponse((r) => r.url().startsWith(`${base}/auth/login`) && r.request().method() === 'POST'),
    logIn(other, email, PASSWORD),
  ])
  expect(refused.status()).toBe(429)
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0)
  await expect(other.getByText('Too many attempts. Please wait a few minutes and try again.')).toBeVisible()
  await stranger.close()

  // The owner's browser signs in as usual.
  await page.goto(`${base}/auth/login`)
  await logIn(page, email, PASSWORD)
  await page.waitForURL(`${base}/dashboard`)
  await expect(page.locator('header[data-topbar="client"]')).toBeVisible()
  await logOut(page)
})

test('never sends the browser to another site after login', async ({ page }) => {
  const email = `redirect.${suffix()}@example.test`
  await signUpAndVerify(page, 'company', email)
  await page.goto(`${base}/auth/login?redirectTo=${encodeURIComponent('//evil.example/steal')}`)
  await logIn(page, email, PASSWORD)
  await page.waitForURL(`${base}/dashboard`)
  await logOut(page)
})

test('signs up and logs in through the OpenID provider', async ({ page }) => {
  const login = `oidc.${suffix()}`
  await page.goto(`${base}/auth/login`)
  await page.locator('main').getByRole('link', { name: 'Continue with Loopback ID' }).click()
  // The provider's own login screen (on another origin, 127.0.0.1:<provider port>).
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('anything')
  await page.locator('button[type="submit"]').click()
  await expect(page).toHaveURL(`${base}/auth/complete-signup`)
  await expect(page.getByText(`${login}@example.test`)).toBeVisible()
  await page.locator('main').getByLabel('Freelancer', { exact: false }).first().check()
  await page.locator('main').getByRole('checkbox').check()
  await page.locator('main').getByRole('button', { name: 'Create my account' }).click()
  await page.waitForURL(`${base}/dashboard`)
  await expect(page.locator('header[data-topbar="freelancer"]')).toBeVisible()
  await logOut(page)

  // Second time: straight in (the provider remembers the browser; no new account).
  await page.goto(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  await page.locator('main').getByRole('link', { name: 'Continue with Loopback ID' }).click()
  if (
    await page
      .locator('input[name="login"]')
      .isVisible()
      .catch(() => false)
  ) {
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('anything')
    await page.locator('button[type="submit"]').click()
  }
  await expect(page).toHaveURL(`${base}/profile/account-settings`)
  await expect(page.getByTestId('account-role')).toHaveText('Freelancer')
  await logOut(page)

  // Without a page to return to, signing in through the provider lands on the dashboard too.
  await page.goto(`${base}/auth/login`)
  await page.locator('main').getByRole('link', { name: 'Continue with Loopback ID' }).click()
  if (
    await page
      .locator('input[name="login"]')
      .isVisible()
      .catch(() => false)
  ) {
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('anything')
    await page.locator('button[type="submit"]').click()
  }
  await expect(page).toHaveURL(`${base}/dashboard`)
  await expect(page.locator('main h1')).toHaveText('Dashboard')
})

test("sends the provider back to the site's address (PUBLIC_URL), whatever Host the request names", async () => {
  const { port } = new URL(base)
  const location = await new Promise<string>((resolve, reject) => {
    http
      .get(
        {
          host: '127.0.0.1',
          port,
          path: '/auth/oidc/loopback',
          headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
        },
        (res) => {
          res.resume()
          resolve(String(res.headers.location ?? ''))
        },
      )
      .on('error', reject)
  })
  const redirectUri = new URL(location).searchParams.get('redirect_uri')
  expect(redirectUri).toBe(`${base}/auth/oidc/callback`)
})

test('shows Failed / Failed To Login when the provider round trip is forged', async ({ page }) => {
  await page.goto(`${base}/auth/oidc/callback?code=forged&state=forged`)
  await expect(page.getByRole('heading', { name: 'Failed' })).toBeVisible()
  await expect(page.getByText('Failed To Login')).toBeVisible()
})
