import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { jsEnabled } from './project-js'
import { openSection, sectionForms } from './profile-editor'
import { untilHydrated } from './settle'

// The profile editor as sections (issue 15, decision 130), with JavaScript on and off, on SQLite
// and PostgreSQL: an individual client and a company edit their sections, each opened on its own
// (one at a time, by a plain link, decision 312) with its own Save and notice; a bad value names the
// field, keeps what was typed and the form open, and no other section says "saved"; a Save changes
// only its own section; the completeness and what to add next follow; the editor speaks all five
// languages.
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

  // The sections show what they hold; Edit is a plain link, so it opens a form without JavaScript.
  await expect(sectionForms(page)).toHaveCount(0)
  await expect(page.locator('#about').getByRole('link', { name: 'Edit About me' })).toHaveAttribute(
    'href',
    '/profile?edit=about#about',
  )

  // Typed in one section, never saved: opening another closes it, and its text is not sent.
  await openSection(page, 'about')
  if (jsEnabled()) await expect(page.locator('#form-clientAbout').getByLabel('Who I am')).toBeFocused()
  await page.locator('#form-clientAbout').getByLabel('Who I am').fill('Typed but not saved')
  await openSection(page, 'basics')
  await expect(sectionForms(page)).toHaveCount(1)
  await expect(page.locator('#form-clientAbout')).toHaveCount(0)
  // Back returns to the form opened before, as to any page the browser went to.
  await page.goBack()
  await expect(page.locator('#about')).toHaveAttribute('data-editing', 'true')
  await expect(page.locator('#form-clientBasics')).toHaveCount(0)
  await expect(sectionForms(page)).toHaveCount(1)

  // About: three fields, one Save; the section closes and shows them.
  const about = page.locator('#form-clientAbout')
  await about.getByLabel('Who I am').fill('A family renovating a Victorian terrace in Bristol.')
  await about.getByLabel('What I do').fill('Secondary school teachers.')
  await about
    .getByLabel('Description')
    .fill('We need structural calculations for removing a load-bearing wall.')
  await save(page, about)
  await expect(page.locator('#about').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.locator('#about')).toContainText('Secondary school teachers.')
  await expect(page.locator('#about')).not.toContainText('Typed but not saved')
  await expect(sectionForms(page)).toHaveCount(0)

  // Then an error in another section: the error names the country, the city stays as typed, the
  // form stays open with the keyboard on the field, and no section says "saved".
  await openSection(page, 'basics')
  const basics = page.locator('#form-clientBasics')
  await basics.getByLabel('City').fill('Bristol')
  await basics.getByRole('button', { name: 'Save' }).click()
  await expect(page.locator('#form-clientBasics').getByText('Choose one of the options.')).toBeVisible()
  await expect(page.locator('#form-clientBasics').getByLabel('Country')).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  if (jsEnabled()) await expect(page.locator('#form-clientBasics').getByLabel('Country')).toBeFocused()
  await expect(page.locator('#form-clientBasics').getByLabel('City')).toHaveValue('Bristol')
  await expect(page.locator('main').getByRole('status')).toHaveCount(0)
  await expect(page.locator('main')).not.toContainText('Your changes are saved.')

  await page.locator('#form-clientBasics').getByLabel('Country').selectOption('GB')
  await save(page, page.locator('#form-clientBasics'))
  await expect(page.locator('#basics').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.locator('#about').getByRole('status')).toHaveCount(0)
  await expect(page.locator('#basics')).toContainText('Bristol')
  await expect(page.locator('#basics')).toContainText('United Kingdom')
  await expect(nav.getByRole('link', { name: /^Basic details/ })).not.toContainText('to add')
  expect(await percent(page)).toBeGreaterThan(before)

  // Cancel closes a form unsaved.
  await openSection(page, 'basics')
  await page.locator('#basics').getByRole('link', { name: 'Cancel' }).click()
  await expect(sectionForms(page)).toHaveCount(0)

  // Areas of interest: the subcategories offered are the chosen category's.
  await openSection(page, 'categories')
  const interests = page.locator('#form-categories')
  await interests.getByLabel('Category', { exact: true }).selectOption({ label: 'Engineering' })
  if (!jsEnabled()) {
    await save(page, interests)
    await openSection(page, 'categories')
  }
  await page
    .locator('#form-categories')
    .getByRole('group', { name: 'Subcategories' })
    .getByLabel('Structural Engineering', { exact: true })
    .check()
  await save(page, page.locator('#form-categories'))
  await expect(page.locator('#categories')).toContainText('Structural Engineering')
  for (const section of ['Basic details', 'About me', 'Areas of interest'])
    await expect(nav.getByRole('link', { name: new RegExp(`^${section}`) })).not.toContainText('to add')

  // The public profile shows what was saved, and not what was only typed.
  await page.getByRole('link', { name: 'View my public profile' }).click()
  await expect(page.locator('main')).toContainText('A family renovating a Victorian terrace in Bristol.')
  await expect(page.locator('main')).not.toContainText('Typed but not saved')
  await expectNoAxeViolations(page)
  await page.goto(`${server().base}/profile`)
  await expectNoAxeViolations(page)
  await page.goto(`${server().base}/profile?edit=basics`)
  await expectNoAxeViolations(page)
  await page.context().close()
})

test('a company edits its sections; the completeness says what to add next', async ({ browser }) => {
  const page = await signInAs(browser, server().base, accounts.company.email)
  await page.goto(`${server().base}/profile`)
  const nav = page.getByRole('navigation', { name: 'Profile sections' })
  await expect(nav.getByRole('link')).toHaveText([/^Profile picture/, /^Basic details/, /^About us/])
  await expect(page.getByTestId('completeness')).toHaveText('0% complete')

  await openSection(page, 'basics')
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

  await openSection(page, 'about')
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
    await expect(page.locator('#rates').getByRole('link')).toHaveText([new RegExp(`^${tr.actions.edit} `)])
    await openSection(page, 'headline')
    await expect(page.locator('#headline').getByRole('button')).toHaveText([tr.actions.save])
    const headline = page.locator('#form-titleOverview')
    await headline.getByRole('button', { name: tr.actions.save }).click()
    await expect(page.locator('#form-titleOverview').getByText(tr.errors.required)).toBeVisible()
    // The longest words (German) must not break the page's accessibility (English: profile.spec.ts).
    if (lng === 'de') await expectNoAxeViolations(page)
  }
  await page.context().close()
})

// Decision 327: the editor's code loads as the page shows it. A client's page downloads the client's
// sections but not the freelancer's, and a form's code only once its section opens; the page still
// hydrates without a message. The scripts are told apart by texts only their code holds.
test(
  "a client's editor loads no freelancer sections, and a form's code when its section opens",
  { tag: '@needs-js' },
  async ({ browser }) => {
    const page = await signInAs(browser, server().base, accounts.client.email)
    const scripts = new Set<string>()
    const messages: string[] = []
    page.on('response', (r) => void (r.request().resourceType() === 'script' && scripts.add(r.url())))
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) messages.push(m.text())
    })
    page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`))
    /** Whether a script the page loaded holds this text. */
    const loaded = async (text: string) => {
      for (const url of scripts) if ((await (await page.request.get(url)).text()).includes(text)) return true
      return false
    }
    await page.goto(`${server().base}/profile`, { waitUntil: 'networkidle' })
    await untilHydrated(page)
    expect(await loaded('sections.whoIAm'), "the client's sections").toBe(true)
    expect(await loaded('rateSheetDelete'), "the freelancer's sections").toBe(false)
    expect(await loaded('clientBasics'), "the client's forms").toBe(false)
    await openSection(page, 'basics')
    await expect(page.locator('#form-clientBasics')).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(await loaded('clientBasics'), "the client's forms, once one is open").toBe(true)
    expect(await loaded('rateSheetDelete'), "the freelancer's sections").toBe(false)
    expect(messages).toEqual([])
    await page.context().close()
  },
)
