import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { jsEnabled } from './project-js'

// The profile editor as sections (issue 15, decision 130), with JavaScript on and off, on SQLite
// and PostgreSQL: an individual client and a company edit their sections, each with its own Save
// and notice; a bad value names the field and keeps what was typed; a Save changes only its own
// section; the completeness and what to add next follow; the editor speaks all five languages.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const server = useShellServer()

type Texts = {
  page: { title: string }
  sections: Record<string, string>
  actions: Record<string, string>
  errors: Record<string, string>
  nav: Record<string, string>
}
const texts = (lng: string) =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, `../../locales/${lng}/profile.json`), 'utf8'),
  ) as Texts

/** Saves one section's form and waits for the page that follows. */
const save = (page: Page, form: Locator) =>
  submitAndWait(page, form.getByRole('button', { name: 'Save' }), jsEnabled())

const percent = async (page: Page) =>
  Number((await page.getByTestId('completeness').textContent())!.match(/\d+/)![0])

test('a client edits basic details, about and areas of interest, each section with its own Save', async ({
  browser,
}) => {
  const page = await signInAs(browser, server().base, accounts.client.email)
  await page.goto(`${server().base}/profile`)
  const nav = page.getByRole('navigation', { name: 'Profile sections' })
  await expect(nav.getByRole('link')).toHaveText([
    /^Profile picture/,
    /^Basic details/,
    /^About me/,
    /^Areas of interest/,
  ])
  await expect(nav.getByRole('link', { name: /^Basic details/ })).toContainText('to add')
  const before = await percent(page)

  // Typed in one section, never saved: the next section's Save does not send it.
  await page.locator('#form-clientAbout').getByLabel('Who I am').fill('Typed but not saved')

  // A city without its country: the error names the country, and the city stays as typed.
  const basics = page.locator('#form-clientBasics')
  await basics.getByLabel('City').fill('Bristol')
  await basics.getByRole('button', { name: 'Save' }).click()
  await expect(page.locator('#form-clientBasics').getByText('Choose one of the options.')).toBeVisible()
  await expect(page.locator('#form-clientBasics').getByLabel('Country')).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  await expect(page.locator('#form-clientBasics').getByLabel('City')).toHaveValue('Bristol')
  await expect(page.locator('#basics').getByRole('status')).toHaveCount(0)

  await page.locator('#form-clientBasics').getByLabel('Country').selectOption('GB')
  await save(page, page.locator('#form-clientBasics'))
  await expect(page.locator('#basics').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.locator('#form-clientBasics').getByLabel('City')).toHaveValue('Bristol')
  await expect(nav.getByRole('link', { name: /^Basic details/ })).not.toContainText('to add')
  expect(await percent(page)).toBeGreaterThan(before)
  await page.goto(`${server().base}/profile`)
  await expect(page.locator('#form-clientAbout').getByLabel('Who I am')).toHaveValue('')

  // About: three fields, one Save.
  const about = page.locator('#form-clientAbout')
  await about.getByLabel('Who I am').fill('A family renovating a Victorian terrace in Bristol.')
  await about.getByLabel('What I do').fill('Secondary school teachers.')
  await about
    .getByLabel('Description')
    .fill('We need structural calculations for removing a load-bearing wall.')
  await save(page, about)
  await expect(page.locator('#about').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.locator('#basics').getByRole('status')).toHaveCount(0)

  // Areas of interest: the subcategories offered are the chosen category's.
  const interests = page.locator('#form-categories')
  await interests.getByLabel('Category', { exact: true }).selectOption({ label: 'Engineering' })
  if (!jsEnabled()) await save(page, interests)
  await page
    .locator('#form-categories')
    .getByRole('group', { name: 'Subcategories' })
    .getByLabel('Structural Engineering', { exact: true })
    .check()
  await save(page, page.locator('#form-categories'))
  await expect(page.locator('#form-categories').getByRole('checkbox', { checked: true })).toHaveCount(1)
  for (const section of ['Basic details', 'About me', 'Areas of interest'])
    await expect(nav.getByRole('link', { name: new RegExp(`^${section}`) })).not.toContainText('to add')

  // The public profile shows what was saved, and not what was only typed.
  await page.getByRole('link', { name: 'View my public profile' }).click()
  await expect(page.locator('main')).toContainText('A family renovating a Victorian terrace in Bristol.')
  await expectNoAxeViolations(page)
  await page.goto(`${server().base}/profile`)
  await expectNoAxeViolations(page)
  await page.context().close()
})

test('a company edits its sections; the completeness says what to add next', async ({ browser }) => {
  const page = await signInAs(browser, server().base, accounts.company.email)
  await page.goto(`${server().base}/profile`)
  const nav = page.getByRole('navigation', { name: 'Profile sections' })
  await expect(nav.getByRole('link')).toHaveText([/^Profile picture/, /^Basic details/, /^About us/])
  await expect(page.getByTestId('completeness')).toHaveText('0% complete')

  const basics = page.locator('#form-companyBasics')
  await basics.getByLabel('Country').selectOption('ES')
  await basics.getByLabel('Website').fill('ftp://ruiz.example')
  await basics.getByLabel('Founded in').fill('2009')
  await basics.getByRole('button', { name: 'Save' }).click()
  await expect(
    page.locator('#form-companyBasics').getByText('Enter a web address starting with http:// or https://.'),
  ).toBeVisible()
  await expect(page.locator('#form-companyBasics').getByLabel('Website')).toHaveValue('ftp://ruiz.example')
  await expect(page.locator('#form-companyBasics').getByLabel('Founded in')).toHaveValue('2009')
  await page.locator('#form-companyBasics').getByLabel('Website').fill('https://ruiz.example')
  await page.locator('#form-companyBasics').getByLabel('Industry').selectOption({ index: 1 })
  await save(page, page.locator('#form-companyBasics'))
  await expect(page.locator('#basics').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.getByTestId('completeness')).toHaveText('20% complete')

  const about = page.locator('#form-companyAbout')
  await about.getByLabel('Who we are').fill('A residential developer on the Valencian coast.')
  await about.getByLabel('What we do').fill('Apartment schemes of 20 to 80 homes.')
  await about.getByLabel('Description').fill('We bring in structural and MEP specialists for each scheme.')
  await save(page, about)
  await expect(page.getByTestId('completeness')).toHaveText('80% complete')
  const next = page
    .getByRole('region', { name: 'Profile completeness' })
    .getByRole('link', { name: 'Add next: Profile picture' })
  await expect(next).toHaveAttribute('href', '/profile#image')
  await expect(nav.getByRole('link', { name: /^Profile picture/ })).toContainText('to add')
  await expectNoAxeViolations(page)
  await page.context().close()
})

test('the editor speaks every language: sections, buttons and errors', async ({ browser }) => {
  test.setTimeout(360_000)
  const page = await signInAs(browser, server().base, accounts.freelancer.email)
  for (const lng of ['en', 'es', 'de', 'it', 'ru']) {
    const tr = texts(lng)
    await page.context().addCookies([{ name: 'lang', value: lng, url: server().base }])
    await page.goto(`${server().base}/profile`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr.page.title)
    const nav = page.getByRole('navigation', { name: tr.nav.label })
    const titles = [
      'image',
      'titleOverview',
      'about',
      'categorization',
      'rates',
      'personal',
      'languages',
      'educations',
      'employmentHistory',
      'certifications',
      'portfolios',
      'documents',
    ].map((k) => tr.sections[k])
    await expect(nav.getByRole('link')).toHaveText(
      titles.map((title) => new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
    )
    await expect(page.locator('main h2')).toContainText(titles)
    await expect(page.locator('#rates').getByRole('button')).toHaveText([tr.actions.save])
    const headline = page.locator('#form-titleOverview')
    await headline.getByRole('button', { name: tr.actions.save }).click()
    await expect(page.locator('#form-titleOverview').getByText(tr.errors.required)).toBeVisible()
    // The longest words (German) must not break the page's accessibility (English: profile.spec.ts).
    if (lng === 'de') await expectNoAxeViolations(page)
  }
  await page.context().close()
})
