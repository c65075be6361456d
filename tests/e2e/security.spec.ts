import { expect, test, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, signInThroughForm, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { hashPassword } from '#server/modules/identity/passwords.ts'
import { totpCode } from '#server/modules/identity/second-factor.ts'
import { jsEnabled } from './project-js'

// Two-factor sign-in end to end (issue 19 item 6, decision 260), JavaScript on and off: a company
// turns on an authenticator app from account settings (QR code and key, a code to confirm, ten
// recovery codes shown once), signs in again in two steps (a wrong code refused, a recovery code
// accepted), and turns it off with the password and a code. The shell SuperAdmin signs in in two
// steps; a SuperAdmin without an app is sent to set one up before reaching anything else.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const SETUP = '/profile/account-settings/two-factor'

async function logIn(page: Page, email: string) {
  await page.goto(`${shell().base}/auth/login`)
  await main(page).getByLabel('Email').fill(email)
  await main(page).getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await main(page).getByRole('button', { name: 'Log in' }).click()
}

async function logOut(page: Page) {
  await page.goto(`${shell().base}/profile/account-settings`)
  await main(page).getByTestId('logout').click()
  await expect(page).toHaveURL(/\/$|\/auth\/login/)
}

test('a company turns on an authenticator app, signs in in two steps, and turns it off', async ({
  browser,
}) => {
  const page = await signInAs(browser, shell().base, accounts.company.email)
  await page.goto(`${shell().base}/profile/account-settings`)
  await main(page).getByRole('link', { name: 'Two-step sign-in' }).click()
  await expect(main(page).getByTestId('two-factor-state')).toHaveText('Off')
  await main(page).getByRole('button', { name: 'Set up an authenticator app' }).click()
  await expect(main(page).getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible()
  await expectNoAxeViolations(page)
  const secret = (await main(page).getByTestId('totp-secret').textContent())!.trim()

  // A wrong code is refused on its field; the right one turns it on and shows the codes once.
  await main(page)
    .getByLabel('Code', { exact: true })
    .fill(totpCode(secret) === '000000' ? '111111' : '000000')
  await main(page).getByRole('button', { name: 'Confirm and turn on' }).click()
  await expect(main(page).getByText('That code is not valid.', { exact: false })).toBeVisible()
  const spent = totpCode(secret)
  await main(page).getByLabel('Code', { exact: true }).fill(spent)
  await main(page).getByRole('button', { name: 'Confirm and turn on' }).click()
  await expect(main(page).getByTestId('two-factor-state')).toHaveText('On')
  const codes = await main(page).getByTestId('recovery-codes').locator('code').allTextContents()
  expect(codes).toHaveLength(10)
  await expectNoAxeViolations(page)
  await page.reload()
  await expect(main(page).getByTestId('recovery-codes')).toHaveCount(0)
  await logOut(page)

  // Signing in now asks for a code: a spent one is refused, a recovery code lets her in.
  await logIn(page, accounts.company.email)
  await expect(page).toHaveURL(/\/auth\/second-factor$/)
  await expect(main(page).locator('h1')).toHaveText('Two-step sign-in')
  await expectNoAxeViolations(page)
  // (the very code that turned it on: refused whenever this runs, in its half minute or after)
  await main(page).getByLabel('Code', { exact: true }).fill(spent)
  await main(page).getByRole('button', { name: 'Verify and sign in' }).click()
  await expect(main(page).locator('.field-error')).toContainText('That code is not valid.')
  await main(page).getByLabel('Code', { exact: true }).fill(codes[0])
  await main(page).getByRole('button', { name: 'Verify and sign in' }).click()
  await expect(page).toHaveURL(/\/dashboard/)

  // Off with the password and another recovery code.
  await page.goto(`${shell().base}${SETUP}`)
  await expect(main(page).getByRole('definition')).toContainText(['On', '9'])
  await main(page).getByLabel('Current password').fill(SHELL_PASSWORD)
  await main(page).getByLabel('Code from your app, or a recovery code').fill(codes[1])
  await main(page).getByRole('button', { name: 'Turn off', exact: true }).click()
  await expect(main(page).getByTestId('two-factor-state')).toHaveText('Off')
  await page.context().close()
})

test('the shell SuperAdmin signs in in two steps and reaches the admin area', async ({ browser }) => {
  const page = await signInThroughForm(browser, shell().base, accounts.admin.email)
  await page.goto(`${shell().base}/admin/complaints`)
  await expect(page).toHaveURL(/\/admin\/complaints/)
  // A second sign-in in the same half minute still gets a code it has not used.
  const again = await signInThroughForm(browser, shell().base, accounts.admin.email)
  await again.goto(`${shell().base}/admin/complaints`)
  await expect(again).toHaveURL(/\/admin\/complaints/)
  await page.context().close()
  await again.context().close()
})

test('a SuperAdmin without an authenticator app is sent to set one up before anything else', async ({
  browser,
}) => {
  const email = `new.admin.${jsEnabled() ? 'js' : 'nojs'}@example.test`
  const now = new Date().toISOString()
  const { id } = await shell()
    .db.db.insertInto('app_user')
    .values({
      email,
      email_verified: 1,
      password_hash: await hashPassword(SHELL_PASSWORD),
      first_name: 'Nia',
      last_name: 'New',
      account_type: 'client',
      status: 'Active',
      language: 'en',
      provider: 'local',
      created_at: now,
      updated_at: now,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  await shell().db.db.insertInto('user_role').values({ user_id: id, role: 1 }).execute()
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  const page = await context.newPage()
  await logIn(page, email)
  await expect(page).toHaveURL(new RegExp(`${SETUP}$`))
  await expect(main(page).getByText('Required for administrators')).toBeVisible()
  for (const elsewhere of ['/dashboard', '/admin/complaints', '/projects']) {
    await page.goto(`${shell().base}${elsewhere}`)
    await expect(page).toHaveURL(new RegExp(`${SETUP}$`))
  }
  await expectNoAxeViolations(page)
  await main(page).getByRole('button', { name: 'Set up an authenticator app' }).click()
  const secret = (await main(page).getByTestId('totp-secret').textContent())!.trim()
  await main(page).getByLabel('Code', { exact: true }).fill(totpCode(secret))
  await main(page).getByRole('button', { name: 'Confirm and turn on' }).click()
  await expect(main(page).getByTestId('recovery-codes')).toBeVisible()
  // No way to turn it off for an administrator.
  await expect(main(page).getByRole('button', { name: 'Turn off', exact: true })).toHaveCount(0)
  await page.goto(`${shell().base}/admin/complaints`)
  await expect(page).toHaveURL(/\/admin\/complaints/)
  await context.close()
})

// Decision 261: every HTML answer carries a Content-Security-Policy with a nonce of its own (pages,
// the API's documentation); the session cookie is httpOnly and SameSite=Lax (Secure only where the
// site is https or not on loopback; this server is plain http on 127.0.0.1); each sign-in starts a
// new session id.
test('HTML answers carry a nonce policy, and the session cookie is httpOnly, SameSite and new at each sign-in', async () => {
  const nonceOf = (policy: string | null) => /script-src 'self' 'nonce-([^']+)'/.exec(policy ?? '')?.[1]
  const pages = await Promise.all([fetch(`${shell().base}/auth/login`), fetch(`${shell().base}/auth/login`)])
  const nonces = pages.map((r) => nonceOf(r.headers.get('content-security-policy')))
  expect(nonces[0]).toMatch(/^[A-Za-z0-9+/=]{20,}$/)
  expect(nonces[0]).not.toBe(nonces[1])
  const html = await pages[0].text()
  // Every inline script that runs carries the answer's nonce (JSON data blocks do not run).
  const inline = (html.match(/<script\b[^>]*>/g) ?? []).filter(
    (tag) => !/\bsrc=|type="application\/(ld\+)?json"/.test(tag),
  )
  expect(inline.length).toBeGreaterThan(0)
  for (const script of inline) expect(script).toContain(`nonce="${nonces[0]}"`)
  expect(pages[0].headers.get('content-security-policy')).toContain("object-src 'none'")

  const docs = await fetch(`${shell().base}/api/v1/docs`)
  const docsNonce = nonceOf(docs.headers.get('content-security-policy'))
  expect(docsNonce).toBeTruthy()
  expect(await docs.text()).toContain(`<style nonce="${docsNonce}">`)
  expect(
    nonceOf((await fetch(`${shell().base}/api/v1/docs`)).headers.get('content-security-policy')),
  ).not.toBe(docsNonce)

  const signIn = async () => {
    const response = await fetch(`${shell().base}/auth/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shell().base },
      body: new URLSearchParams({ email: accounts.freelancer.email, password: SHELL_PASSWORD }),
    })
    expect(response.status).toBe(302)
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('session='))!
    expect(cookie).toMatch(/; HttpOnly/i)
    expect(cookie).toMatch(/; SameSite=Lax/i)
    expect(cookie).not.toMatch(/; Secure/i)
    const token = /^session=([^;]+)/.exec(cookie)![1]
    return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string
  }
  const [first, second] = [await signIn(), await signIn()]
  expect(first).not.toBe(second)
})
