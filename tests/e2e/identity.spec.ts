import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { expect, test, type Page } from '@playwright/test'
import { linkIn, startSmtpServer } from '../support/smtp.ts'
import { startOidcProvider } from '../support/oidc-provider.ts'

// Identity end to end, in Chromium, with JavaScript on and off: this file starts its own server
// (built app) wired to a real SMTP server and a real OpenID provider, all on 127.0.0.1, on the
// database of the Playwright project (SQLite, or a fresh PostgreSQL database).
test.describe.configure({ mode: 'serial', timeout: 90_000 })

const root = path.resolve(import.meta.dirname, '../..')
const PASSWORD = 'steel beams and concrete'
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let oidc: Awaited<ReturnType<typeof startOidcProvider>>
let server: ChildProcess | undefined
let base = ''
let dataDir = ''
let pgDatabase: string | null = null
let output = ''
const postgresAdmin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function freePort() {
  const s = net.createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  smtp = await startSmtpServer()
  oidc = await startOidcProvider({ redirectUris: [`${base}/auth/oidc/callback`] })
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workneer-identity-e2e-'))
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.IDENTITY_E2E_LOG_LEVEL ?? 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ...oidc.env,
  }
  delete env.DATABASE_URL
  delete env.REDIS_URL
  delete env.PUBLIC_URL
  if (testInfo.project.name.includes('postgres')) {
    pgDatabase = `wk_identity_e2e_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: postgresAdmin })
    await admin.connect()
    await admin.query(`create database ${pgDatabase}`)
    await admin.end()
    const url = new URL(postgresAdmin)
    url.pathname = `/${pgDatabase}`
    env.DATABASE_URL = url.href
  }
  server = spawn(process.execPath, [path.join(root, 'server/boot.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout!.on('data', (d) => (output += d))
  server.stderr!.on('data', (d) => (output += d))
  const deadline = Date.now() + 150_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped:\n${output}`)
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
})

test.afterAll(async ({}, testInfo) => {
  await testInfo.attach('server-output', { body: output, contentType: 'text/plain' })
  if (process.env.IDENTITY_E2E_LOG) fs.writeFileSync(process.env.IDENTITY_E2E_LOG, output)
  if (server && server.exitCode === null) {
    server.kill('SIGTERM')
    await new Promise((r) => server!.once('exit', r))
  }
  await smtp?.close()
  await oidc?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  if (pgDatabase) {
    const admin = new pg.Client({ connectionString: postgresAdmin })
    await admin.connect()
    await admin.query(`drop database if exists ${pgDatabase} with (force)`)
    await admin.end()
  }
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
  test(`signs up as ${kind}, verifies the email from the mail, logs in, sees the role, logs out`, async ({ page }) => {
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
    await page.waitForURL(`${base}/`)
    await expect(page.locator(`header[data-topbar="${bar}"]`)).toBeVisible()

    await page.goto(`${base}/profile/account-settings`)
    await expect(page.getByTestId('account-role')).toHaveText(roleName)
    await logOut(page)
    await expect(page.locator('header[data-topbar="freelancer"], header[data-topbar="client"]')).toHaveCount(0)
    // The session is gone: the guarded page sends the visitor to log in again.
    await page.goto(`${base}/profile/account-settings`)
    await expect(page).toHaveURL(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  })
}

test('shows the first error of each field and keeps nothing when the sign-up is invalid', async ({ page }) => {
  await page.goto(`${base}/auth/gotosign`)
  await page.locator('main').getByLabel('Email').fill('not-an-email')
  await page.locator('main').getByLabel('Password', { exact: true }).fill('password123')
  await page.locator('main').getByRole('button', { name: 'Create my account' }).click()
  await expect(page.getByText('Enter a valid email address.')).toBeVisible()
  await expect(page.getByText('You need to accept the terms and conditions.')).toBeVisible()
  await expect(page.getByText('This password is too common. Choose one that is harder to guess.')).toBeVisible()
  await expect(page).toHaveURL(`${base}/auth/gotosign`)
})

test('resets a forgotten password from the mail, and returns to the page asked for after login', async ({ page }) => {
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
  await expect(page.getByTestId('account-summary')).toContainText('75%')
  await logOut(page)
})

test('never sends the browser to another site after login', async ({ page }) => {
  const email = `redirect.${suffix()}@example.test`
  await signUpAndVerify(page, 'company', email)
  await page.goto(`${base}/auth/login?redirectTo=${encodeURIComponent('//evil.example/steal')}`)
  await logIn(page, email, PASSWORD)
  await page.waitForURL(`${base}/`)
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
  await page.waitForURL(`${base}/`)
  await expect(page.locator('header[data-topbar="freelancer"]')).toBeVisible()
  await logOut(page)

  // Second time: straight in (the provider remembers the browser; no new account).
  await page.goto(`${base}/auth/login?redirectTo=%2Fprofile%2Faccount-settings`)
  await page.locator('main').getByRole('link', { name: 'Continue with Loopback ID' }).click()
  if (await page.locator('input[name="login"]').isVisible().catch(() => false)) {
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill('anything')
    await page.locator('button[type="submit"]').click()
  }
  await expect(page).toHaveURL(`${base}/profile/account-settings`)
  await expect(page.getByTestId('account-role')).toHaveText('Freelancer')
})

test('shows Failed / Failed To Login when the provider round trip is forged', async ({ page }) => {
  await page.goto(`${base}/auth/oidc/callback?code=forged&state=forged`)
  await expect(page.getByRole('heading', { name: 'Failed' })).toBeVisible()
  await expect(page.getByText('Failed To Login')).toBeVisible()
})
