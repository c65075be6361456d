import { expect, test, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { jsEnabled } from './project-js'

// Issue 39 (item 11): the create-project form had a Tab stop for every skill of the catalogue
// between the subcategory and the budget. With JavaScript the skills are one Tab stop (a roving
// tabindex): arrows move, Space ticks. Without it they stay plain checkboxes, each its own stop.
test.describe.configure({ mode: 'serial', timeout: 120_000 })
const server = useShellServer()

/** Presses Tab from where the focus is until `target` has it; the number of presses. */
async function tabsTo(page: Page, target: ReturnType<Page['locator']>, limit = 200) {
  for (let n = 1; n <= limit; n++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return n
  }
  return Infinity
}

test('the skills are one Tab stop between the subcategory and the budget', async ({ browser }) => {
  const page = await signInAs(browser, server().base, accounts.client.email)
  await page.goto(`${server().base}/projects/create`)
  const main = page.locator('main')
  const skills = main.getByRole('group', { name: 'Skills' })
  const boxes = skills.getByRole('checkbox')
  expect(await boxes.count()).toBeGreaterThan(20)
  if (jsEnabled()) await expect(skills.getByPlaceholder('Type to filter')).toBeVisible()

  await main.getByLabel('Subcategory').focus()
  const fixed = main.getByRole('radio').first()
  const presses = await tabsTo(page, fixed)
  // The filter box, one skill, then the kind of budget; without JavaScript, every skill on the way.
  if (jsEnabled()) expect(presses).toBe(3)
  else expect(presses).toBe((await boxes.count()) + 1)
  if (!jsEnabled()) return page.context().close()

  // Back to the one skill with Shift+Tab: the arrows move, Space ticks, the tags show the choice.
  await page.keyboard.press('Shift+Tab')
  await expect(boxes.first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(boxes.nth(2)).toBeFocused()
  await page.keyboard.press('Space')
  await expect(boxes.nth(2)).toBeChecked()
  const name = (await boxes.nth(2).evaluate((el) => el.closest('label')!.textContent ?? '')).trim()
  await expect(skills.getByRole('list', { name: 'Chosen' })).toContainText(name)
  await page.keyboard.press('End')
  await expect(boxes.last()).toBeFocused()
  await page.keyboard.press('Home')
  await expect(boxes.first()).toBeFocused()
  // Tab leaves the list at once, and coming back lands on the skill last visited.
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Tab')
  await expect(fixed).toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(boxes.nth(1)).toBeFocused()
  await expectNoAxeViolations(page)
  await page.context().close()
})
