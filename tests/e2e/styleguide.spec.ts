import { expect, test } from '@playwright/test'
import { boxes } from './layout'
import { axeViolations, expectNoAxeViolations } from './axe'
import { holdScripts } from './hold-scripts'
import { installmentStates } from '#server/modules/projects/machines.ts'

// The design system's page (/_styleguide, served because the e2e servers run with E2E=1; decision
// 110): every component in every state. The screenshot makes a change in look a reviewed image
// diff (update it with --update-snapshots and commit the new image: one for every project, since
// the page reads no data and each database's server draws it alike). Fixed viewport, time zone and
// locale, no animations, system fonts only, so it is the same on every run of this machine image.
test.use({ viewport: { width: 1100, height: 900 }, timezoneId: 'UTC', locale: 'en-US' })

test('the style guide shows every state of every component, accessibly', async ({ page }) => {
  await page.goto('/_styleguide')
  await expect(page.getByRole('heading', { name: 'Workneer style guide' })).toBeVisible()
  // One chip per state of each machine, each with its word.
  await expect(page.getByTestId('chips-project').getByTestId('status-chip')).toHaveText([
    'Draft',
    'In review',
    'Returned',
    'Open',
    'In progress',
    'Completed',
    'Cancelled',
  ])
  await expect(page.getByTestId('chips-installment').getByTestId('status-chip')).toHaveCount(
    installmentStates.length,
  )
  // A chip sits in the text, not at the top of the page like the bell's badge.
  const [chip, row] = await boxes(
    page.getByTestId('chips-project').getByTestId('status-chip').first(),
    page.getByTestId('chips-project'),
  )
  expect(chip.y).toBeGreaterThanOrEqual(row.y - 1)
  // Radios keep their size beside their label (not stretched to the field's width).
  for (const radio of await page.getByTestId('sg-radios').getByRole('radio').all())
    expect((await radio.boundingBox())!.width).toBeLessThan(30)
  await expectNoAxeViolations(page)
})

// The check every spec leans on must see what it is there to see (decision 296): violations planted
// in the page and in a frame of the same origin are reported, each by its rule.
test('axe reports violations planted in the page and in a frame @needs-js', async ({ page }) => {
  test.skip(test.info().project.name !== 'sqlite', 'axe runs in the SQLite project')
  await page.goto('/_styleguide')
  // Hydrated first, so React does not take the planted nodes out again.
  await expect(page.getByTestId('tag-input').first().getByRole('searchbox')).toBeVisible()
  await page.evaluate(() => {
    const img = document.createElement('img')
    img.src = '/favicon.svg'
    document.querySelector('main')!.append(img)
    const frame = document.createElement('iframe')
    frame.title = 'planted'
    frame.srcdoc = '<html lang="en"><body><main><a href="/faq"></a></main></body></html>'
    document.body.append(frame)
  })
  await expect.poll(() => page.frames().length).toBe(2)
  await page.frames()[1].waitForLoadState()
  const violations = await axeViolations(page)
  expect(
    violations.filter((v) => v.startsWith('image-alt:')),
    violations.join('\n'),
  ).toHaveLength(1)
  expect(violations.find((v) => v.startsWith('link-name:'))).toContain('iframe')
})

test('the style guide looks as reviewed @needs-js', async ({ page }) => {
  await page.goto('/_styleguide')
  // Hydrated: the tag input has become a tag picker.
  await expect(page.getByTestId('tag-input').first().getByRole('searchbox')).toBeVisible()
  await expect(page).toHaveScreenshot('styleguide.png', {
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
  })
})

// Decision 276: a box ticked before the JavaScript arrives stays ticked, and shows as a chosen tag.
test('the tag input keeps a box ticked before the page was hydrated @needs-js', async ({ page }) => {
  const release = await holdScripts(page)
  await page.goto('/_styleguide', { waitUntil: 'domcontentloaded' })
  const skills = page.getByTestId('tag-input').first()
  const box = skills.locator('.ui-tags-options input[type="checkbox"]:not(:checked)').first()
  const value = await box.getAttribute('value')
  await box.check()
  release()
  await expect(skills.getByRole('searchbox')).toBeVisible() // hydrated
  await expect(skills.locator(`.ui-tags-options input[value="${value}"]`)).toBeChecked()
  const name = (
    await skills.locator(`.ui-tags-options input[value="${value}"]`).locator('..').innerText()
  ).trim()
  await expect(skills.locator('.ui-tags-chosen')).toContainText(name)
})
