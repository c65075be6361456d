import { expect, test, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { shellApi } from './shell-api'
import { hiredRoom } from './hired-room'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { writeAccounts, type Account } from '../support/accounts.ts'

// A person closes their own account (issue 42 item 3, decision 330), JavaScript on and off: a wrong
// password is refused on its field; a freelancer with an active contract is told why not; a new
// client closes theirs, is signed out and told until when signing in keeps it, and signing in keeps it.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const CLOSE = '/profile/account-settings/close'

/** A new client, active and verified, as the shell's accounts are written. */
async function newClient(email: string) {
  const account: Account = { email, firstName: 'Cal', lastName: 'Closer', roles: [2], accountType: 'client' }
  const [id] = await writeAccounts(shell().db, [account], SHELL_PASSWORD)
  return id!
}

const closingAt = async (id: number) =>
  (
    await shell()
      .db.db.selectFrom('app_user')
      .select('closing_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).closing_at

test('a person with an active contract is told why the account cannot be closed', async ({ browser }) => {
  // The shell freelancer's proposal accepted: an active contract.
  await hiredRoom(
    shell,
    shellApi(() => shell().base),
    `closing ${test.info().project.name}`,
  )
  const party = await shell()
    .db.db.selectFrom('app_user')
    .select(['id', 'email'])
    .where('email', '=', accounts.freelancer.email)
    .executeTakeFirstOrThrow()
  const page = await signInAs(browser, shell().base, party.email)
  await page.goto(`${shell().base}/profile/account-settings`)
  await expect(main(page).getByRole('link', { name: 'Close your account' })).toHaveAttribute('href', CLOSE)
  await page.goto(`${shell().base}${CLOSE}`)
  await main(page).getByLabel('Your password').fill(SHELL_PASSWORD)
  await main(page).getByRole('button', { name: 'Close my account' }).click()
  await expect(main(page).getByRole('alert')).toContainText('You still have an active contract')
  expect(await closingAt(party.id)).toBeNull()
  await page.context().close()
})

test('a client closes their account, is signed out and told until when; signing in keeps it', async ({
  browser,
}) => {
  const email = `closer-${test.info().project.name}-${Date.now()}@example.com`
  const id = await newClient(email)
  const page = await signInAs(browser, shell().base, email)
  await page.goto(`${shell().base}${CLOSE}`)
  await expect(main(page).getByRole('heading', { level: 1 })).toHaveText('Close your account')
  await expectNoAxeViolations(page)
  await main(page).getByLabel('Your password').fill('not my password')
  await main(page).getByRole('button', { name: 'Close my account' }).click()
  await expect(main(page).getByRole('alert').first()).toBeVisible()
  expect(await closingAt(id)).toBeNull()

  await main(page).getByLabel('Your password').fill(SHELL_PASSWORD)
  await main(page).getByRole('button', { name: 'Close my account' }).click()
  await expect(page).toHaveURL(`${shell().base}/`)
  await expect(page.getByText(/Your account is closed and will be erased on/)).toBeVisible()
  expect(await closingAt(id)).not.toBeNull()
  await page.goto(`${shell().base}/dashboard`)
  await expect(page).toHaveURL(/\/auth\/login/)

  const context = await browser.newContext({ javaScriptEnabled: jsEnabled(), locale: 'en-US' })
  const again = await context.newPage()
  await again.goto(`${shell().base}/auth/login`)
  await main(again).getByLabel('Email').fill(email)
  await main(again).getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await main(again).getByRole('button', { name: 'Log in' }).click()
  await expect(again).not.toHaveURL(/\/auth\/login/)
  expect(await closingAt(id)).toBeNull()
  await context.close()
  await page.context().close()
})
