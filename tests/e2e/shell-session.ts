import { expect, test, type Browser, type Page } from '@playwright/test'
import { jsEnabled } from './project-js'
import { SHELL_PASSWORD, shellAdminCode, startShellServer } from './shell-server'
import { shellApi } from './shell-api'
import { untilHydrated } from './settle'

// The web session's cookie and where a sign-in lands (SESSION_COOKIE, SIGNED_IN_HOME of
// app/lib/session.server.ts, which loads the router and is not imported into the test runner).
const SESSION_COOKIE = 'session'
const SIGNED_IN_HOME = '/dashboard'

/** Starts a shell server (accounts of every role, with these settings) for this file's tests and stops it after them. */
export function useShellServer(env?: (base: string) => Record<string, string>) {
  let server: Awaited<ReturnType<typeof startShellServer>> | undefined
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(180_000)
    server = await startShellServer(testInfo, env)
  })
  test.afterAll(async () => {
    await server?.stop()
  })
  return () => server!
}

/**
 * A new browser context signed in as one of the shell accounts, on the page the login form lands on.
 * The API's sign-in (the SuperAdmin's code included) gives the token the form would put in the
 * session cookie: the form's own steps are the subject of identity, security and shell-signed-in
 * specs, and before every other spec's flow they cost a quarter of a second more each (decision 357).
 */
export async function signInAs(browser: Browser, base: string, email: string) {
  const token = await shellApi(() => base).login(email)
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  await context.addCookies([
    { name: SESSION_COOKIE, value: token, url: base, httpOnly: true, sameSite: 'Lax' },
  ])
  const page = await context.newPage()
  await page.goto(`${base}${SIGNED_IN_HOME}`)
  return landed(page)
}

/**
 * Waits for the signed-in page the sign-in landed on, hydrated when JavaScript is on: a spec that
 * types into a control before React has hydrated it loses the text (findings.spec once searched
 * for "all" instead of the name it had typed).
 */
async function landed(page: Page) {
  await expect(page.locator('header[data-topbar="client"], header[data-topbar="freelancer"]')).toBeVisible()
  if (jsEnabled()) await untilHydrated(page)
  return page
}

/** A new browser context signed in through the login form as one of the shell accounts. */
export async function signInThroughForm(browser: Browser, base: string, email: string) {
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  const page = await context.newPage()
  await page.goto(`${base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  // An account with an authenticator app (the SuperAdmin) is asked for its code next.
  await page.waitForURL((url) => url.pathname !== '/auth/login')
  if (new URL(page.url()).pathname === '/auth/second-factor') {
    await page.locator('main').getByLabel('Code', { exact: true }).fill(shellAdminCode(base))
    await page.locator('main').getByRole('button', { name: 'Verify and sign in' }).click()
  }
  return landed(page)
}
