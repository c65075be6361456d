import { openSection } from './profile-editor'
import { expect, test, type Browser, type Page } from '@playwright/test'
import writeXlsxFile from 'write-excel-file/node'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { sheetColumns } from '#server/modules/catalogue/admin-contract.ts'
import { jsEnabled } from './project-js'

// The admin catalogue end to end (issue 18 item 3): only a SuperAdmin reaches /admin/categories; an
// admin imports a skills sheet: a text file is "Invalid Excel", a sheet with a bad row is reported
// by its line and imports nothing, the fixed sheet imports, and the new skill is offered at once in
// a freelancer's profile editor. The admin also adds a category and renames it in German. JavaScript
// on and off; axe on each page.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()

const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const main = (page: Page) => page.locator('main')
const sheet = (rows: string[][]) => writeXlsxFile([[...sheetColumns], ...rows]).toBuffer()
const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

async function check(page: Page, name: string, mimeType: string, buffer: Buffer) {
  const form = main(page).getByTestId('sheet-form')
  await form.getByLabel('Excel sheet (xlsx) or CSV file').setInputFiles({ name, mimeType, buffer })
  await submitAndWait(page, form.getByRole('button', { name: 'Check the sheet' }), false)
}

test('only a SuperAdmin reaches the catalogue pages', async ({ browser }) => {
  const fred = await signedIn(browser, accounts.freelancer.email)
  for (const path of ['/admin/categories', '/admin/categories/import', '/admin/categories/export/csv']) {
    await fred.goto(`${shell().base}${path}`)
    await expect(fred).toHaveURL(/\/auth\/unauthorized$/)
  }
  await fred.context().close()
})

test('an admin imports a skills sheet (a bad row first: reported, nothing imported; then fixed) and the freelancer can pick the new skill', async ({
  browser,
}) => {
  const js = jsEnabled()
  const word = `${js ? 'js' : 'plain'}${Date.now().toString(36)}`
  const skill = `Timber frame design ${word}`
  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/categories`)
  await expect(main(sam).locator('h1')).toHaveText('Categories and skills')
  await expect(main(sam).getByTestId('admin-category')).toHaveCount(6)
  await expectNoAxeViolations(sam)
  await main(sam).getByRole('link', { name: 'Import skills' }).click()
  await expect(main(sam).locator('h1')).toHaveText('Import skills')
  await expectNoAxeViolations(sam)

  // docs/product.md §5: anything but xlsx or csv, and a text file posing as a workbook, is "Invalid Excel".
  await check(sam, 'skills.txt', 'text/plain', Buffer.from('Category,Subcategory,Skill (en)\n'))
  await expect(main(sam).getByTestId('sheet-error')).toHaveText(
    'Invalid Excel: please select a valid Excel sheet.',
  )
  await check(sam, 'skills.xlsx', xlsxType, Buffer.from('Category,Subcategory,Skill (en)\n'))
  await expect(main(sam).getByTestId('sheet-error')).toHaveText(
    'Invalid Excel: please select a valid Excel sheet.',
  )

  // A bad row on line 3: the report names it, offers no plain "Import", and nothing is imported.
  const good = ['Engineering', 'Structural engineering', skill, '', `Holzrahmenbau ${word}`, '', '']
  await check(
    sam,
    'skills.xlsx',
    xlsxType,
    await sheet([good, ['Atlantis', 'Structural engineering', `Lost ${word}`, '', '', '', '']]),
  )
  const report = main(sam).getByTestId('sheet-report')
  await expect(report.getByRole('alert')).toContainText('1 row has problems.')
  await expect(report.getByTestId('sheet-problem')).toHaveCount(1)
  await expect(report.getByTestId('sheet-problem').locator('td')).toHaveText([
    '3',
    'Category',
    'Unknown category',
  ])
  await expect(report.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0)
  await expect(report.getByRole('button', { name: 'Import only the good rows (1 skill)' })).toBeVisible()
  await expectNoAxeViolations(sam)

  // Fixed: every row is good, and the admin imports it.
  await check(sam, 'skills.xlsx', xlsxType, await sheet([good]))
  await expect(report.getByRole('status')).toContainText('Every row is good.')
  await submitAndWait(sam, report.getByRole('button', { name: 'Import', exact: true }), js)
  await expect(sam).toHaveURL(/\/admin\/categories$/)
  await expect(
    sam.getByText('Imported. New skills: 1 · added to another subcategory: 0 · bad rows skipped: 0.'),
  ).toBeVisible()

  // The freelancer's profile editor offers it at once.
  const fred = await signedIn(browser, accounts.freelancer.email)
  await fred.goto(`${shell().base}/profile`)
  // The skills are in their own section's form, opened by its Edit link (decision 312).
  await openSection(fred, 'categories')
  await expect(main(fred).getByRole('checkbox', { name: skill })).toBeAttached()
  await fred.context().close()

  // The lost row's skill was never imported.
  const lost = await shell()
    .db.db.selectFrom('skill')
    .select('id')
    .where('name_en', '=', `Lost ${word}`)
    .execute()
  expect(lost).toEqual([])
  await sam.context().close()
})

test('an admin adds a category and names it in German; it shows in the catalogue', async ({ browser }) => {
  const js = jsEnabled()
  const word = `${js ? 'js' : 'plain'}${Date.now().toString(36)}`
  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/categories`)
  const add = main(sam).getByTestId('create-category')
  await add.getByLabel('English').fill(`Surveying ${word}`)
  await submitAndWait(sam, add.getByRole('button', { name: 'Add' }), js)
  await main(sam)
    .getByRole('link', { name: `Surveying ${word}` })
    .click()
  await expect(main(sam).locator('h1')).toHaveText(`Surveying ${word}`)
  await expectNoAxeViolations(sam)
  const rename = main(sam).getByTestId('rename-category')
  await rename.getByLabel('German').fill(`Vermessung ${word}`)
  await submitAndWait(sam, rename.getByRole('button', { name: 'Save names' }), js)
  await expect(sam.getByText('Names saved.')).toBeVisible()
  const row = await shell()
    .db.db.selectFrom('category')
    .select(['name_de', 'name_es'])
    .where('name_en', '=', `Surveying ${word}`)
    .executeTakeFirstOrThrow()
  expect(row).toEqual({ name_de: `Vermessung ${word}`, name_es: `Surveying ${word}` })
  await sam.context().close()
})
