import { expect, test, type Page } from '@playwright/test'
import { writeAccounts } from '../support/accounts.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { apiCall } from './contract-setup'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'
import { submitAndWait } from './form-submit'
import { untilHydrated } from './settle'

// Review before publication end to end (issue 41 item 6, decision 339), JavaScript on (PostgreSQL)
// and off (SQLite): with the rule "a client's first project", a new client's first project waits
// for review; the admin returns it with a reason, the client reads it, edits and publishes again,
// the admin approves, and it is public in Find Project. The rule is set back to "none" at the end.
test.describe.configure({ timeout: 180_000 })
const shell = useShellServer()

const main = (page: Page) => page.locator('main')

test('a first project waits for review, is returned, resubmitted, approved and found', async ({
  browser,
}) => {
  const base = shell().base
  const js = jsEnabled()
  const word = `${js ? 'js' : 'plain'}${Date.now().toString(36)}`
  const rita = { email: `rita.${word}@example.test`, firstName: 'Rita', lastName: 'Nueva' }
  await writeAccounts(shell().db, [{ ...rita, roles: [2], accountType: 'client' }], SHELL_PASSWORD)
  const client = (
    await apiCall(base, 'POST', 'identity/login', null, { email: rita.email, password: SHELL_PASSWORD })
  ).token as string
  const { id: subcategoryId } = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()

  // The admin sets the rule on its page.
  const sam = await signInAs(browser, base, accounts.admin.email)
  try {
    await sam.goto(`${base}/admin/project-review/rule`)
    if (js) await untilHydrated(sam)
    await main(sam).getByLabel('A client’s first project').check()
    await submitAndWait(sam, main(sam).getByRole('button', { name: 'Save the rule' }), js)
    await expect(sam.getByText('The review rule is saved.')).toBeVisible()
    await expectNoAxeViolations(sam)

    const project = await apiCall(base, 'POST', 'projects', client, {
      title: `Review ${word}: a garden retaining wall`,
      description: 'Design and calculations for a two metre retaining wall in reinforced concrete.',
      subcategoryId,
      budgetType: 'fixed',
      budgetMinor: 90000,
      currency: 'EUR',
      remote: true,
      publish: true,
    })
    expect(project.status).toBe('in_review')

    // The queue shows it with its content; the admin returns it with a reason.
    await sam.goto(`${base}/admin/project-review`)
    if (js) await untilHydrated(sam)
    const item = main(sam).getByTestId('review-item').filter({ hasText: word })
    await expect(item).toContainText('reinforced concrete')
    await expectNoAxeViolations(sam)
    await item.getByLabel('Reason for returning it').fill('Say which soil report you have.')
    await submitAndWait(sam, item.getByRole('button', { name: 'Return to the client' }), js)
    await expect(main(sam).getByTestId('review-item').filter({ hasText: word })).toHaveCount(0)

    // The client reads the reason, edits and publishes again: it waits once more.
    const rPage = await signInAs(browser, base, rita.email)
    await rPage.goto(`${base}/projects/client/details/${project.id}`)
    await expect(main(rPage).getByTestId('review-reason')).toContainText('Say which soil report you have.')
    await expectNoAxeViolations(rPage)
    await main(rPage).getByRole('link', { name: 'Edit project' }).click()
    if (js) await untilHydrated(rPage)
    await main(rPage)
      .getByLabel('Description')
      .fill('Retaining wall design; the 2025 soil report is attached.')
    await main(rPage).getByRole('button', { name: 'Publish project' }).click()
    await expect(main(rPage).getByTestId('review-state')).toBeVisible()
    await rPage.context().close()

    await sam.goto(`${base}/admin/project-review`)
    if (js) await untilHydrated(sam)
    const again = main(sam).getByTestId('review-item').filter({ hasText: word })
    await expect(again).toContainText('2025 soil report')
    // The queue and the admin's tab row fit a phone: nothing scrolls sideways at 320 px.
    await sam.setViewportSize({ width: 320, height: 700 })
    expect(await sam.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await submitAndWait(sam, again.getByRole('button', { name: 'Approve and publish' }), js)
    await expect(sam.getByText(`is approved and public`)).toBeVisible()

    // Public in Find Project.
    await sam.goto(`${base}/projects/getprojects?search=${word}`)
    await expect(main(sam).getByTestId('project-card').filter({ hasText: word })).toHaveCount(1)
  } finally {
    await sam.goto(`${base}/admin/project-review/rule`)
    await main(sam).getByLabel('No project (publish at once)').check()
    await main(sam).getByRole('button', { name: 'Save the rule' }).click()
    await expect(sam.getByText('The review rule is saved.')).toBeVisible()
    await sam.context().close()
  }
})
