import { expect, test, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD, startShellServer } from './shell-server'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { settle } from './settle'
import { confirmStep } from './confirm'
import { jsEnabled } from './project-js'
import { openSection, sectionForms } from './profile-editor'

// Profiles end to end, with JavaScript on and off, on SQLite and PostgreSQL: a freelancer opens
// and fills every section (one open at a time, decision 312), reads its dates as people write them, and uploads a picture and portfolio files; docs/product.md §5's upload messages show word
// for word; a client searches, filters and opens the public profile; a freelancer who opens
// Find Freelancers gets the unauthorized page. The server (with its accounts) is the shell's
// e2e server: a built app on the project's database.
test.describe.configure({ mode: 'serial', timeout: 240_000 })
let server: Awaited<ReturnType<typeof startShellServer>>

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startShellServer(testInfo)
})
test.afterAll(async () => {
  await server?.stop()
})

// A minimal PNG (1×1) and a minimal PDF, made here so the test needs no fixture files.
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d4944415478da63f8cfc0f01f0005000201' +
    'a5f6e2a90000000049454e44ae426082',
  'hex',
)
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

async function logIn(page: Page, email: string) {
  await page.goto(`${server.base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await expect(page.locator('header[data-topbar="client"], header[data-topbar="freelancer"]')).toBeVisible()
}

/** Submits with a button and waits for the POST, the page that follows and its notice. */
async function submit(page: Page, button: ReturnType<Page['locator']>) {
  await submitAndWait(page, button, jsEnabled())
  await settle(page)
  await expect(page.getByText('Success Operation').first()).toBeVisible()
}

/** Sends a payout-method form, whose confirmation step must ask `question`, then confirms it (decision 310). */
async function submitConfirmed(page: Page, button: ReturnType<Page['locator']>, question: string | RegExp) {
  await submitAndWait(page, button, jsEnabled())
  await settle(page)
  await confirmStep(page, question)
  await expect(page.getByText('Success Operation').first()).toBeVisible()
}

test('a freelancer fills every section, uploads a picture and portfolio files, and sees 100%', async ({
  page,
}) => {
  await logIn(page, accounts.freelancer.email)
  await page.goto(`${server.base}/profile`)
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible()
  await expect(page.getByTestId('completeness')).toHaveText('0% complete')
  // A side list of the sections; each section shows what it holds and its own Edit link, no form.
  const nav = page.getByRole('navigation', { name: 'Profile sections' })
  await expect(nav.getByRole('link')).toHaveCount(12)
  await expect(nav.getByRole('link', { name: /^Rate and availability/ })).toHaveAttribute('href', '#rates')
  await expect(nav.getByRole('link', { name: /^Rate and availability/ })).toContainText('to add')
  await expect(sectionForms(page)).toHaveCount(0)
  for (const [id, title] of [
    ['headline', 'Title and overview'],
    ['about', 'About me'],
    ['categories', 'Category, subcategories and skills'],
    ['rates', 'Rate and availability'],
    ['personal', 'Location and personal details'],
  ]) {
    await expect(page.locator(`#${id}`).getByRole('link', { name: `Edit ${title}` })).toBeVisible()
    await expect(page.locator(`#${id}`)).toContainText('Nothing here yet.')
  }

  // Edit opens that section's form, and only it; the keyboard lands on its first field.
  await openSection(page, 'headline')
  await expect(sectionForms(page)).toHaveCount(1)
  const titleForm = page.locator('#form-titleOverview')
  if (jsEnabled()) await expect(titleForm.getByLabel('Professional title')).toBeFocused()

  // A form shows the first error of a field, changes nothing and stays open.
  await titleForm.getByRole('button', { name: 'Save' }).click()
  await expect(titleForm.getByText('This field is required.')).toBeVisible()
  await expect(page.locator('#headline')).toHaveAttribute('data-editing', 'true')

  await titleForm.getByLabel('Professional title').fill('Structural Engineer – Concrete and Seismic Design')
  await titleForm
    .getByLabel('Overview')
    .fill('Chartered structural engineer designing reinforced concrete and steel to Eurocodes.')
  await submit(page, titleForm.getByRole('button', { name: 'Save' }))
  // The section closes and says it is saved, showing what it holds; the others say nothing.
  await expect(page.locator('#headline').getByRole('status')).toHaveText('Your changes are saved.')
  await expect(page.locator('#headline')).toContainText('Structural Engineer – Concrete and Seismic Design')
  await expect(sectionForms(page)).toHaveCount(0)
  await expect(page.locator('#about').getByRole('status')).toHaveCount(0)

  await openSection(page, 'about')
  await page
    .locator('#form-description')
    .getByLabel('Description')
    .fill('Fourteen years of residential, commercial and industrial buildings.')
  await submit(page, page.locator('#form-description').getByRole('button', { name: 'Save' }))

  // Rate and availability: one Save for the four fields.
  await openSection(page, 'rates')
  const rates = page.locator('#form-rates')
  await rates.getByLabel('Hourly rate').fill('55.50')
  await rates.getByLabel('Availability').selectOption('part-time')
  await rates.getByLabel('Experience level').selectOption({ label: 'Expert' })
  await rates.getByLabel('Years of experience').fill('14')
  await submit(page, rates.getByRole('button', { name: 'Save' }))
  await expect(page.locator('#rates')).toContainText('€55.50')
  await expect(page.locator('#rates')).toContainText('Part time')
  await expect(nav.getByRole('link', { name: /^Rate and availability/ })).not.toContainText('to add')

  await openSection(page, 'personal')
  const personal = page.locator('#form-personal')
  await personal.getByLabel('Country').selectOption('RS')
  await personal.getByLabel('City').fill('Belgrade')
  await personal.getByLabel('Gender').selectOption('female')
  await submit(page, personal.getByRole('button', { name: 'Save' }))

  // A language is added, then its level changed with the same form.
  for (const [level, name] of [
    ['fluent', 'Fluent'],
    ['native', 'Native or bilingual'],
  ]) {
    await openSection(page, 'languages')
    await page.locator('#form-language').getByLabel('Language').selectOption('sr')
    await page.locator('#form-language').getByLabel('Level').selectOption(level)
    await submit(page, page.locator('#form-language').getByRole('button', { name: 'Save' }))
    // The form is drawn anew (empty) with the list: wait for it before the next choice.
    await expect(page.locator('#languages li')).toHaveCount(1)
    await expect(page.locator('#languages li')).toContainText(`Serbian · ${name}`)
  }

  // Skills are a tag input (checkboxes without JavaScript); the subcategories follow the category.
  await openSection(page, 'categories')
  const cat = page.locator('#form-categories')
  await cat.getByLabel('Category', { exact: true }).selectOption({ label: 'Engineering' })
  await cat
    .getByRole('group', { name: 'Skills' })
    .getByLabel('Structural analysis', { exact: true })
    .first()
    .check()
  await cat
    .getByRole('group', { name: 'Skills' })
    .getByLabel('Reinforced concrete design', { exact: true })
    .first()
    .check()
  if (!jsEnabled()) {
    await submit(page, cat.getByRole('button', { name: 'Save' }))
    await openSection(page, 'categories')
  }
  await page
    .locator('#form-categories')
    .getByRole('group', { name: 'Subcategories' })
    .getByLabel('Structural Engineering', { exact: true })
    .check()
  await submit(page, page.locator('#form-categories').getByRole('button', { name: 'Save' }))
  await expect(page.locator('#categories')).toContainText('Reinforced concrete design, Structural analysis')
  await expect(page.locator('#categories')).toContainText('Structural Engineering')

  // A bad value names the field and keeps what was typed.
  await openSection(page, 'education')
  const edu = page.locator('#form-education')
  await edu.getByLabel('School or university').fill('University of Belgrade')
  await edu.getByLabel('Degree').fill('MSc Civil Engineering')
  await edu.getByLabel('From (year)').fill('2010')
  await edu.getByLabel('To (year)').fill('2004')
  await edu.getByRole('button', { name: 'Save' }).click()
  await expect(page.locator('#form-education').getByText('The end cannot be before the start.')).toBeVisible()
  await expect(page.locator('#form-education').getByLabel('School or university')).toHaveValue(
    'University of Belgrade',
  )
  await expect(page.locator('#form-education').getByLabel('Degree')).toHaveValue('MSc Civil Engineering')
  await page.locator('#form-education').getByLabel('From (year)').fill('2004')
  await page.locator('#form-education').getByLabel('To (year)').fill('2010')
  await submit(page, page.locator('#form-education').getByRole('button', { name: 'Save' }))
  await expect(page.locator('#education li')).toContainText([
    'MSc Civil Engineering, University of Belgrade (2004–2010)',
  ])

  await openSection(page, 'experience')
  const job = page.locator('#form-experience')
  await job.getByLabel('Company').fill('CES Mecon')
  await job.getByLabel('Position').fill('Structural engineer')
  await job.getByLabel('From', { exact: true }).fill('2010-09')
  await submit(page, job.getByRole('button', { name: 'Save' }))
  // Months read as people write them, with the word for an open end.
  await expect(page.locator('#experience li')).toHaveText(
    /Structural engineer, CES Mecon \(Sep 2010 – present\)/,
  )

  await openSection(page, 'certifications')
  const cert = page.locator('#form-certifications')
  await cert.getByLabel('Certification').fill('Licensed Structural Engineer')
  await cert.getByLabel('Issued by').fill('Serbian Chamber of Engineers')
  await submit(page, cert.getByRole('button', { name: 'Save' }))

  await openSection(page, 'portfolio')
  const item = page.locator('#form-portfolio')
  await item.getByLabel('Project title').fill('Nine-storey residential building')
  await item.getByLabel('Details').fill('Reinforced concrete frame with shear walls.')
  await submit(page, item.getByRole('button', { name: 'Save' }))

  // Edit a list item (its Edit link opens it in the section's one form) and remove another.
  await page
    .locator('#certifications')
    .getByRole('link', { name: 'Edit Licensed Structural Engineer — Serbian Chamber of Engineers' })
    .click()
  await expect(page.locator('#certifications h3')).toHaveText(
    'Edit: Licensed Structural Engineer — Serbian Chamber of Engineers',
  )
  await page.locator('#form-certifications').getByLabel('Issued by').fill('Inženjerska komora Srbije')
  await submit(page, page.locator('#form-certifications').getByRole('button', { name: 'Save' }))
  await expect(page.locator('#certifications li')).toContainText([
    'Licensed Structural Engineer — Inženjerska komora Srbije',
  ])
  await expect(page.locator('#form-certifications')).toHaveCount(0)
  await openSection(page, 'certifications')
  await expect(page.locator('#certifications h3')).toHaveText('Add another')
  await page.locator('#form-certifications').getByLabel('Certification').fill('Temporary')
  await page.locator('#form-certifications').getByLabel('Issued by').fill('Nobody')
  await submit(page, page.locator('#form-certifications').getByRole('button', { name: 'Save' }))
  await expect(page.locator('#certifications li')).toHaveCount(2)
  await submit(
    page,
    page.locator('#certifications li', { hasText: 'Temporary' }).getByRole('button', { name: 'Remove' }),
  )
  await expect(page.locator('#certifications li')).toHaveCount(1)

  // docs/product.md §5, word for word: a PDF is not an image; an image over 800 KB is too big.
  await openSection(page, 'image')
  const upload = page.locator('#upload-image')
  await upload
    .locator('input[type=file]')
    .setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: pdf })
  await upload.getByRole('button', { name: 'Upload picture' }).click()
  await expect(page.locator('#upload-image [role=alert]')).toContainText('Invalid Image')
  await expect(page.locator('#upload-image [role=alert]')).toContainText('Please select a valid image')
  await page.locator('#upload-image input[type=file]').setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([png, Buffer.alloc(801 * 1024)]),
  })
  await page.locator('#upload-image').getByRole('button', { name: 'Upload picture' }).click()
  await expect(page.locator('#upload-image [role=alert]')).toContainText('File Size')
  await expect(page.locator('#upload-image [role=alert]')).toContainText(
    'Image size should not exceed 800 KB',
  )

  await page
    .locator('#upload-image input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
  await submit(page, page.locator('#upload-image').getByRole('button', { name: 'Upload picture' }))
  // The top bar shows the new picture at once.
  await expect(page.locator('details.profile-menu img.avatar')).toHaveAttribute('src', /files\/\d+\/download/)

  // A portfolio item's files are uploaded while it is open for editing.
  await page
    .locator('#portfolio')
    .getByRole('link', { name: 'Edit Nine-storey residential building' })
    .click()
  const portfolioImage = page.locator('form[id^="upload-portfolioImage-"]').first()
  await portfolioImage
    .locator('input[type=file]')
    .setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: png })
  await submit(page, portfolioImage.getByRole('button', { name: 'Upload' }))
  const portfolioFile = page.locator('form[id^="upload-portfolioFile-"]').first()
  await portfolioFile
    .locator('input[type=file]')
    .setInputFiles({ name: 'calculations.pdf', mimeType: 'application/pdf', buffer: pdf })
  await submit(page, portfolioFile.getByRole('button', { name: 'Upload' }))
  await expect(page.locator('#portfolio img.portfolio-image')).toHaveCount(1)
  await expect(
    page.locator('#portfolio').getByRole('link', { name: 'Download calculations.pdf' }),
  ).toBeVisible()

  // The schedule of rates takes a spreadsheet only (docs/product.md §5, word for word): an old .xls is refused.
  await openSection(page, 'documents')
  const rateSheet = page.locator('#upload-rateSheet')
  await rateSheet.locator('input[type=file]').setInputFiles({
    name: 'rates.xls',
    mimeType: 'application/vnd.ms-excel',
    buffer: Buffer.from('not a workbook'),
  })
  await rateSheet.getByRole('button', { name: 'Upload' }).click()
  await expect(page.locator('#upload-rateSheet [role=alert]')).toContainText('Invalid Excel')
  await expect(page.locator('#upload-rateSheet [role=alert]')).toContainText(
    'Please select a valid Excel sheet',
  )
  await expect(page.locator('#documents')).toHaveAttribute('data-editing', 'true')
  const uploadSheet = async (name: string) => {
    if (!(await page.locator('#upload-rateSheet').count())) await openSection(page, 'documents')
    await page.locator('#upload-rateSheet input[type=file]').setInputFiles({
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from('item;unit;rate\nslab design;m²;4.50\n'),
    })
    await submit(page, page.locator('#upload-rateSheet').getByRole('button', { name: 'Upload' }))
    await expect(page.locator('#documents').getByRole('link', { name: `Download ${name}` })).toBeVisible()
  }
  // A sheet can be removed, and a new one uploaded.
  await uploadSheet('draft-rates.csv')
  await submit(page, page.locator('#documents').getByRole('button', { name: 'Remove' }))
  await expect(page.locator('#documents')).toContainText('No schedule of rates yet.')
  await uploadSheet('rates.csv')

  await expect(page.getByTestId('completeness')).toHaveText('100% complete')
  await expect(page.locator('aside')).toContainText('Your profile is complete.')
  await expect(nav).not.toContainText('to add')
  await expectNoAxeViolations(page)
})

test('a freelancer keeps payment methods: IBAN checked, masked, one default', async ({ page }) => {
  await logIn(page, accounts.freelancer.email)
  await page.goto(`${server.base}/payment-details`)
  await expect(page).toHaveURL(`${server.base}/peyment-details`)
  const bank = page.locator('#form-bank')
  await bank.getByLabel('Account holder').fill('Fred Freelancer')
  await bank.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 01')
  await bank.getByRole('button', { name: 'Add' }).click()
  await expect(page.locator('#form-bank').getByText('This IBAN is not valid: please check it.')).toBeVisible()
  await page.locator('#form-bank').getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
  await submitConfirmed(
    page,
    page.locator('#form-bank').getByRole('button', { name: 'Add' }),
    'Send your payouts to Bank account •••• 3000 (Fred Freelancer)?',
  )
  const paypal = page.locator('#form-paypal')
  await paypal.getByLabel('Account holder').fill('Fred Freelancer')
  await paypal.getByLabel('PayPal email address').fill('fred@example.com')
  await submitConfirmed(
    page,
    paypal.getByRole('button', { name: 'Add' }),
    'Send your payouts to PayPal · fred@example.com (Fred Freelancer)?',
  )
  const methods = page.getByTestId('payment-method')
  await expect(methods).toHaveCount(2)
  await expect(methods.first()).toContainText('DE89 •••• •••• •••• •••• 3000')
  await expect(methods.first()).toContainText('Default')
  await expect(page.locator('main')).not.toContainText('370400440532013000')
  await submitConfirmed(
    page,
    methods.nth(1).getByRole('button', { name: 'Make default' }),
    /^Make PayPal f•••@example\.com your default\?/,
  )
  await expect(page.getByTestId('payment-method').first()).toContainText('f•••@example.com')
  await expect(page.getByTestId('payment-method').first()).toContainText('Default')
  await expectNoAxeViolations(page)
})

test('a freelancer who opens Find Freelancers gets the unauthorized page', async ({ page }) => {
  await logIn(page, accounts.freelancer.email)
  await page.goto(`${server.base}/freelancers`)
  await expect(page).toHaveURL(`${server.base}/auth/unauthorized`)
})

test('a client searches, filters and opens a public profile; the URL keeps the search', async ({ page }) => {
  await logIn(page, accounts.client.email)
  await page.goto(`${server.base}/freelancers/freelancersearch?search=all`)
  await expect(page.getByRole('heading', { level: 1, name: 'Find Freelancers' })).toBeVisible()
  const filters = page.getByRole('form', { name: 'Filters' })
  await filters.getByLabel('Keywords').fill('struct')
  await filters.getByLabel('Country').selectOption('RS')
  await filters.getByLabel('Experience level').selectOption('expert')
  await filters.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/search=struct/)
  await expect(page).toHaveURL(/country=RS/)
  await expect(page.getByRole('heading', { name: '1 freelancer found' })).toBeVisible()
  await expect(page.locator('.hit')).toContainText('55.50')
  await expectNoAxeViolations(page)
  // No match for another country; the URL alone reproduces a search.
  await page.goto(`${server.base}/freelancers?search=struct&country=DE`)
  await expect(page.getByRole('heading', { name: '0 freelancers found' })).toBeVisible()
  await page.goto(
    `${server.base}/freelancers?search=concrete&availability=part-time&sort=rate-asc&minRate=50&maxRate=60`,
  )
  await page.getByRole('link', { name: 'Fred Freelancer', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Fred Freelancer' })).toBeVisible()
  await expect(page.locator('main')).toContainText('Structural Engineer – Concrete and Seismic Design')
  await expect(page.locator('main')).toContainText('Nine-storey residential building')
  await expect(page.locator('main')).toContainText('University of Belgrade')
  // Months as people read them; the About facts each a label over its value in one cell of the grid.
  await expect(page.locator('main')).toContainText('Structural engineer, CES Mecon')
  await expect(page.locator('main')).toContainText('Sep 2010 – present')
  await expect(page.locator('main .ui-dl > div > dt + dd').first()).toBeVisible()
  expect(await page.locator('main .ui-dl > div > dt + dd').count()).toBe(
    await page.locator('main .ui-dl dt').count(),
  )
  await expect(page.locator('main').getByRole('link', { name: 'Download rates.csv' })).toHaveAttribute(
    'href',
    /files\/\d+\/download/,
  )
  await expect(page.locator('main')).not.toContainText('Female')
  if (jsEnabled()) await expect(page.locator('main img.portfolio-image')).toBeVisible()
  await expectNoAxeViolations(page)
})
