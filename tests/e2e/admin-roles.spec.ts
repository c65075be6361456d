import { expect, test, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { writeAccounts } from '../support/accounts.ts'
import { jsEnabled } from './project-js'

// The Roles section of an admin's user page (decision 265), JavaScript on and off: Sam makes a
// client a SuperAdmin with a reason (none is refused, naming the field); her other session ends
// and her next sign-in is sent to set up two-step sign-in (decision 260); Sam takes the role back;
// the history lists both. His own page offers no role change. axe on the page.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

test('an admin grants the SuperAdmin role with a reason, the account is signed out and must set up two-step sign-in; the role is taken back', async ({
  browser,
}) => {
  const js = jsEnabled()
  const base = shell().base
  const email = `nia.roles.${js ? 'js' : 'nojs'}@example.test`
  const [id] = await writeAccounts(
    shell().db,
    [{ email, firstName: 'Nia', lastName: 'Roles', roles: [2], accountType: 'client' }],
    SHELL_PASSWORD,
  )
  const nia = await signInAs(browser, base, email)

  const sam = await signInAs(browser, base, accounts.admin.email)
  await sam.goto(`${base}/admin/users/${id}`)
  const roles = main(sam).getByTestId('roles-section')
  await expect(roles.getByRole('heading', { name: 'Roles' })).toBeVisible()
  await expect(roles).toContainText('Client')
  await expectNoAxeViolations(sam)

  // Without a reason: refused on the field, nothing changes.
  const grant = main(sam).getByTestId('grantAdmin-form')
  await grant
    .getByLabel('Reason (recorded in the audit trail)')
    .evaluate((el: HTMLTextAreaElement) => el.removeAttribute('required'))
  await submitAndWait(sam, grant.getByRole('button', { name: 'Make SuperAdmin' }), false)
  await expect(main(sam).locator('#grantAdmin-reason-error')).toHaveText('Please give a reason')
  await expect(roles.locator('p').first()).toHaveText('Client')
  await expectNoAxeViolations(sam)

  await grant.getByLabel('Reason (recorded in the audit trail)').fill('Joins the support team')
  await grant.getByRole('button', { name: 'Make SuperAdmin' }).click()
  await expect(sam.getByText('The account is a SuperAdmin now; its sessions have ended.')).toBeVisible()
  await expect(roles.locator('p').first()).toHaveText('SuperAdmin, Client')
  await expect(main(sam).getByTestId('timeline')).toContainText(
    'Sam Support: made a SuperAdmin — Joins the support team',
  )
  await expectNoAxeViolations(sam)

  // Nia's session ended; signing in again, she must set up an authenticator app before anything else.
  await nia.goto(`${base}/dashboard`)
  await expect(nia).toHaveURL(/\/auth\/login\?redirectTo=%2Fdashboard$/)
  await main(nia).getByLabel('Email').fill(email)
  await main(nia).getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await main(nia).getByRole('button', { name: 'Log in' }).click()
  await expect(nia).toHaveURL(/\/profile\/account-settings\/two-factor$/)
  await expect(main(nia).getByText('Required for administrators')).toBeVisible()

  // Sam takes it back; Nia is signed out again and is a client once more.
  const take = main(sam).getByTestId('takeAdmin-form')
  await take.getByLabel('Reason (recorded in the audit trail)').fill('Left the support team')
  await take.getByRole('button', { name: 'Remove SuperAdmin role' }).click()
  await expect(sam.getByText('The account is no longer a SuperAdmin; its sessions have ended.')).toBeVisible()
  await expect(roles.locator('p').first()).toHaveText('Client')
  await expect(main(sam).getByTestId('timeline')).toContainText(
    'Sam Support: removed the SuperAdmin role — Left the support team',
  )
  await nia.goto(`${base}/dashboard`)
  await expect(nia).toHaveURL(/\/auth\/login/)
  await nia.context().close()

  // His own page: no role change offered.
  const self = await shell()
    .db.db.selectFrom('app_user')
    .select('id')
    .where('email', '=', accounts.admin.email)
    .executeTakeFirstOrThrow()
  await sam.goto(`${base}/admin/users/${self.id}`)
  await expect(roles).toContainText('These are your own roles')
  await expect(main(sam).getByTestId('takeAdmin-form')).toHaveCount(0)
  await sam.context().close()
})
