import { expect, test, type Browser } from '@playwright/test'
import { jsEnabled } from './project-js'
import { SHELL_PASSWORD, shellAdminCode, startShellServer } from './shell-server'

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

/** A new browser context signed in through the login form as one of the shell accounts. */
export async function signInAs(browser: Browser, base: string, email: string) {
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
  await expect(page.locator('header[data-topbar="client"], header[data-topbar="freelancer"]')).toBeVisible()
  return page
}
