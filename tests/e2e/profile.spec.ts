import { expect, test, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD, startShellServer } from './shell-server'
import { expectNoAxeViolations } from './axe'

// Profiles end to end, with JavaScript on and off, on SQLite and PostgreSQL: a freelancer fills
// every section and uploads a picture and portfolio files; SPEC §5's upload messages show word
// for word; a client searches, filters and opens the public profile; a freelancer who opens
// Find Freelancers gets the unauthorized page. The server (with its accounts) is the shell's
// e2e server: a built app on the project's database.
test.describe.configure({ mode: 'serial', timeout: 240_000 })
let server: Awaited<ReturnType<typeof startShellServer>>
const js = () => test.info().project.use.javaScriptEnabled !== false

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startShellServer(testInfo)
})
test.afterAll(async () => {
  await server?.stop()
})

// A minimal PNG (1×1) and a minimal PDF, made here so the test needs no fixture files.
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d4944415478da63f8cfc0f01f0005000201' + 'a5f6e2a90000000049454e44ae426082', 'hex')
const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')

async function logIn(page: Page, email: string) {
  await page.goto(`${server.base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await expect(page.locator('header[data-topbar="client"], header[data-topbar="freelancer"]')).toBeVisible()
}

/** Submits with a button and waits for the POST, the page that follows and its notice. */
async function submit(page: Page, button: ReturnType<Page['locator']>) {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST')
  await button.click()
  await posted
  await page.waitForLoadState('networkidle')
  await expect(page.getByText('Success Operation').first()).toBeVisible()
}

test('a freelancer fills every section, uploads a picture and portfolio files, and sees 100%', async ({ page }) => {
  await logIn(page, accounts.freelancer.email)
  await page.goto(`${server.base}/profile`)
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible()
  await expect(page.getByTestId('completeness')).toHaveText('0% complete')

  // A form shows the first error of a field and changes nothing.
  const titleForm = page.locator('#form-titleOverview')
  await titleForm.getByRole('button', { name: 'Save' }).click()
  await expect(titleForm.getByText('This field is required.')).toBeVisible()

  await titleForm.getByLabel('Professional title').fill('Structural Engineer – Concrete and Seismic Design')
  await titleForm.getByLabel('Overview').fill('Chartered structural engineer designing reinforced concrete and steel to Eurocodes.')
  await submit(page, titleForm.getByRole('button', { name: 'Save' }))

  await page.locator('#form-description').getByLabel('Description').fill('Fourteen years of residential, commercial and industrial buildings.')
  await submit(page, page.locator('#form-description').getByRole('button', { name: 'Save' }))

  const steps: Array<[string, (p: Page) => Promise<unknown>]> = [
    ['#form-experienceLevel', (p) => p.locator('#form-experienceLevel').getByLabel('Experience level').selectOption({ label: 'Expert' })],
    ['#form-yearsOfExperience', (p) => p.locator('#form-yearsOfExperience').getByLabel('Years of experience').fill('14')],
    ['#form-country', async (p) => {
      await p.locator('#form-country').getByLabel('Country').selectOption('RS')
      await p.locator('#form-country').getByLabel('City').fill('Belgrade')
    }],
    ['#form-availability', (p) => p.locator('#form-availability').getByLabel('Availability').selectOption('part-time')],
    ['#form-hourlyRate', (p) => p.locator('#form-hourlyRate').getByLabel('Hourly rate').fill('55.50')],
    ['#form-gender', (p) => p.locator('#form-gender').getByLabel('Gender').selectOption('female')],
    ['#form-languageAdd', async (p) => {
      await p.locator('#form-languageAdd').getByLabel('Language').selectOption('sr')
      await p.locator('#form-languageAdd').getByLabel('Level').selectOption('native')
    }],
  ]
  for (const [form, fill] of steps) {
    await fill(page)
    await submit(page, page.locator(form).getByRole('button'))
  }
  await expect(page.locator('#languages')).toContainText('Serbian')

  const cat = page.locator('#form-categorization')
  await cat.getByLabel('Category', { exact: true }).selectOption({ label: 'Engineering' })
  const block = cat.locator('details.category-block', { hasText: 'Engineering' }).first()
  await block.locator('summary').click()
  await block.getByLabel('Structural Engineering', { exact: true }).check()
  await block.getByLabel('Structural analysis', { exact: true }).first().check()
  await block.getByLabel('Reinforced concrete design', { exact: true }).first().check()
  await submit(page, cat.getByRole('button', { name: 'Save' }))

  const edu = page.locator('#form-education-new')
  await edu.getByLabel('School or university').fill('University of Belgrade')
  await edu.getByLabel('Degree').fill('MSc Civil Engineering')
  await edu.getByLabel('From (year)').fill('2010')
  await edu.getByLabel('To (year)').fill('2004')
  await edu.getByRole('button', { name: 'Add' }).click()
  await expect(page.locator('#form-education-new').getByText('The end cannot be before the start.')).toBeVisible()
  await page.locator('#form-education-new').getByLabel('From (year)').fill('2004')
  await page.locator('#form-education-new').getByLabel('To (year)').fill('2010')
  await submit(page, page.locator('#form-education-new').getByRole('button', { name: 'Add' }))

  const job = page.locator('#form-employment-new')
  await job.getByLabel('Company').fill('CES Mecon')
  await job.getByLabel('Position').fill('Structural engineer')
  await job.getByLabel('From', { exact: true }).fill('2010-09')
  await submit(page, job.getByRole('button', { name: 'Add' }))

  const cert = page.locator('#form-certification-new')
  await cert.getByLabel('Certification').fill('Licensed Structural Engineer')
  await cert.getByLabel('Issued by').fill('Serbian Chamber of Engineers')
  await submit(page, cert.getByRole('button', { name: 'Add' }))

  const item = page.locator('#form-portfolio-new')
  await item.getByLabel('Project title').fill('Nine-storey residential building')
  await item.getByLabel('Details').fill('Reinforced concrete frame with shear walls.')
  await submit(page, item.getByRole('button', { name: 'Add' }))

  // Edit and remove a list item.
  await page.locator('#certifications details summary').first().click()
  await page.locator('#certifications form[id^="form-certification-"]').first().getByLabel('Issued by').fill('Inženjerska komora Srbije')
  await submit(page, page.locator('#certifications form[id^="form-certification-"]').first().getByRole('button', { name: 'Save' }))
  await expect(page.locator('#certifications')).toContainText('Inženjerska komora Srbije')

  // SPEC §5, word for word: a PDF is not an image; an image over 800 KB is too big.
  const upload = page.locator('#upload-image')
  await upload.locator('input[type=file]').setInputFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: pdf })
  await upload.getByRole('button', { name: 'Upload picture' }).click()
  await expect(page.locator('#upload-image [role=alert]')).toContainText('Invalid Image')
  await expect(page.locator('#upload-image [role=alert]')).toContainText('Please select a valid image')
  await page.locator('#upload-image input[type=file]').setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(801 * 1024)]) })
  await page.locator('#upload-image').getByRole('button', { name: 'Upload picture' }).click()
  await expect(page.locator('#upload-image [role=alert]')).toContainText('File Size')
  await expect(page.locator('#upload-image [role=alert]')).toContainText('Image size should not exceed 800 KB')

  await page.locator('#upload-image input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
  await submit(page, page.locator('#upload-image').getByRole('button', { name: 'Upload picture' }))
  // The top bar shows the new picture at once.
  await expect(page.locator('details.profile-menu img.avatar')).toHaveAttribute('src', /files\/\d+\/download/)

  const portfolioImage = page.locator('form[id^="upload-portfolioImage-"]').first()
  await portfolioImage.locator('input[type=file]').setInputFiles({ name: 'site.png', mimeType: 'image/png', buffer: png })
  await submit(page, portfolioImage.getByRole('button', { name: 'Upload' }))
  const portfolioFile = page.locator('form[id^="upload-portfolioFile-"]').first()
  await portfolioFile.locator('input[type=file]').setInputFiles({ name: 'calculations.pdf', mimeType: 'application/pdf', buffer: pdf })
  await submit(page, portfolioFile.getByRole('button', { name: 'Upload' }))
  await expect(page.locator('#portfolios img.portfolio-image')).toHaveCount(1)
  await expect(page.locator('#portfolios').getByRole('link', { name: 'Download calculations.pdf' })).toBeVisible()

  // The schedule of rates takes a spreadsheet only (SPEC §5, word for word): an old .xls is refused.
  const rateSheet = page.locator('#upload-rateSheet')
  await rateSheet.locator('input[type=file]').setInputFiles({ name: 'rates.xls', mimeType: 'application/vnd.ms-excel', buffer: Buffer.from('not a workbook') })
  await rateSheet.getByRole('button', { name: 'Upload' }).click()
  await expect(page.locator('#upload-rateSheet [role=alert]')).toContainText('Invalid Excel')
  await expect(page.locator('#upload-rateSheet [role=alert]')).toContainText('Please select a valid Excel sheet')
  await expect(page.locator('#rate-sheet')).toContainText('No schedule of rates yet.')
  const uploadSheet = async (name: string) => {
    await page.locator('#upload-rateSheet input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from('item;unit;rate\nslab design;m²;4.50\n') })
    await submit(page, page.locator('#upload-rateSheet').getByRole('button', { name: 'Upload' }))
    await expect(page.locator('#rate-sheet').getByRole('link', { name: `Download ${name}` })).toBeVisible()
  }
  // A sheet can be removed, and a new one uploaded.
  await uploadSheet('draft-rates.csv')
  await submit(page, page.locator('#rate-sheet').getByRole('button', { name: 'Remove' }))
  await expect(page.locator('#rate-sheet')).toContainText('No schedule of rates yet.')
  await uploadSheet('rates.csv')

  await expect(page.getByTestId('completeness')).toHaveText('100% complete')
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
  await submit(page, page.locator('#form-bank').getByRole('button', { name: 'Add' }))
  const paypal = page.locator('#form-paypal')
  await paypal.getByLabel('Account holder').fill('Fred Freelancer')
  await paypal.getByLabel('PayPal email address').fill('fred@example.com')
  await submit(page, paypal.getByRole('button', { name: 'Add' }))
  const methods = page.getByTestId('payment-method')
  await expect(methods).toHaveCount(2)
  await expect(methods.first()).toContainText('DE89 •••• •••• •••• •••• 3000')
  await expect(methods.first()).toContainText('Default')
  await expect(page.locator('main')).not.toContainText('370400440532013000')
  await submit(page, methods.nth(1).getByRole('button', { name: 'Make default' }))
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
  await page.goto(`${server.base}/freelancers?search=concrete&availability=part-time&sort=rate-asc&minRate=50&maxRate=60`)
  await page.getByRole('link', { name: 'Fred Freelancer' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Fred Freelancer' })).toBeVisible()
  await expect(page.locator('main')).toContainText('Structural Engineer – Concrete and Seismic Design')
  await expect(page.locator('main')).toContainText('Nine-storey residential building')
  await expect(page.locator('main')).toContainText('University of Belgrade')
  await expect(page.locator('main').getByRole('link', { name: 'Download rates.csv' })).toHaveAttribute('href', /files\/\d+\/download/)
  await expect(page.locator('main')).not.toContainText('Female')
  if (js()) await expect(page.locator('main img.portfolio-image')).toBeVisible()
  await expectNoAxeViolations(page)
})
