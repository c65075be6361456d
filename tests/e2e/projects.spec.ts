import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts, SHELL_PASSWORD, startShellServer } from './shell-server'

// Issue 6 end to end, with JavaScript on and off, on SQLite and PostgreSQL, as two users in two
// browser contexts: a client creates a project with an attachment and installments; a freelancer
// finds it by search and filter, saves it, asks a question and proposes; the client accepts; both
// see the contract; the installments are funded, submitted and approved; the client completes the
// project; both review, and each sees the other's review.
test.describe.configure({ mode: 'serial', timeout: 300_000 })
let server: Awaited<ReturnType<typeof startShellServer>>
const js = () => test.info().project.use.javaScriptEnabled !== false

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startShellServer(testInfo)
})
test.afterAll(async () => {
  await server?.stop()
})

const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n')

async function signedIn(browser: Browser, email: string) {
  const context = await browser.newContext({ javaScriptEnabled: js(), locale: 'en-US' })
  const page = await context.newPage()
  await page.goto(`${server.base}/auth/login`)
  await page.locator('main').getByLabel('Email').fill(email)
  await page.locator('main').getByLabel('Password', { exact: true }).fill(SHELL_PASSWORD)
  await page.locator('main').getByRole('button', { name: 'Log in' }).click()
  await expect(page.locator('header[data-topbar="client"], header[data-topbar="freelancer"]')).toBeVisible()
  return page
}

/** Opens a page and waits until it is quiet, so (with JavaScript) it is hydrated before we type. */
async function go(page: Page, url: string) {
  await page.goto(url)
  await page.waitForLoadState('networkidle')
}

async function click(page: Page, name: string | RegExp, scope = page.locator('main')) {
  await scope.getByRole('button', { name }).first().click()
  await page.waitForLoadState('networkidle')
}

test('post, find, propose, accept, deliver, complete and review', async ({ browser }) => {
  const word = `footbridge${Date.now().toString(36)}`
  const client = await signedIn(browser, accounts.client.email)
  const freelancer = await signedIn(browser, accounts.freelancer.email)
  const main = (p: Page) => p.locator('main')

  // The client: bad input shows the first error of each field and creates nothing.
  await go(client, `${server.base}/projects/create`)
  await click(client, 'Publish project')
  await expect(main(client).getByText('Please fill this in.').first()).toBeVisible()

  await main(client).getByLabel('Title', { exact: true }).fill(`Timber ${word} structural check`)
  await main(client).getByLabel('Description').fill(`Check the timber ${word} over the creek: calculations for the deck and the abutments, with drawings.`)
  await main(client).getByLabel('Subcategory').selectOption({ label: 'Structural Engineering' })
  await main(client).getByLabel('Budget', { exact: true }).fill('1500')
  await main(client).getByLabel('Duration in days').fill('30')
  await main(client).getByLabel('Installment 1').fill('Calculations')
  await main(client).getByLabel('Amount 1').fill('1000')
  await main(client).getByLabel('Installment 2').fill('Drawings')
  await main(client).getByLabel('Amount 2').fill('500')
  await main(client).getByLabel('Attachment').setInputFiles({ name: 'site-survey.pdf', mimeType: 'application/pdf', buffer: pdf })
  await click(client, 'Publish project')
  await expect(main(client).getByText('Your project is published.')).toBeVisible()
  await expect(main(client).getByRole('link', { name: 'site-survey.pdf' })).toBeVisible()
  const projectUrl = client.url().split('?')[0]
  const projectId = projectUrl.split('/').pop()

  // The freelancer finds it by full text and a filter, saves it, asks, proposes.
  await go(freelancer, `${server.base}/projects/getprojects?search=${word}`)
  await expect(main(freelancer).getByLabel('Keywords')).toHaveValue(word)
  await main(freelancer).getByLabel('Payment').selectOption('fixed')
  await click(freelancer, 'Apply')
  await expect(freelancer).toHaveURL(new RegExp(`search=${word}.*budgetType=fixed`))
  await main(freelancer).getByRole('link', { name: `Timber ${word} structural check` }).click()
  await freelancer.waitForLoadState('networkidle')
  await expect(freelancer).toHaveURL(`${server.base}/projects/details/${projectId}`)
  await click(freelancer, 'Save')
  await expect(main(freelancer).getByRole('button', { name: /Saved/ })).toBeVisible()
  await main(freelancer).getByLabel('Ask a question').fill('Are there drawings of the existing abutments?')
  await click(freelancer, 'Post')
  await expect(main(freelancer).getByText('Are there drawings of the existing abutments?')).toBeVisible()
  await main(freelancer).getByLabel('Cover letter').fill('I check timber bridges to Eurocode 5 and can deliver both installments in three weeks.')
  await main(freelancer).getByLabel(/Your price/).fill('1400')
  await main(freelancer).getByLabel('Duration in days').fill('21')
  await main(freelancer).getByLabel('Installment 1').fill('Calculations')
  await main(freelancer).getByLabel('Amount 1').fill('900')
  await main(freelancer).getByLabel('Installment 2').fill('Drawings')
  await main(freelancer).getByLabel('Amount 2').fill('500')
  await click(freelancer, 'Send proposal')
  await expect(main(freelancer).getByRole('heading', { name: 'Your proposal' })).toBeVisible()
  await go(freelancer, `${server.base}/projects/freelancer/porposals`)
  await expect(main(freelancer).getByTestId('my-proposal').filter({ hasText: word })).toContainText('Pending')

  // The client accepts (a plain form); the contract starts with the freelancer's installments.
  await go(client, projectUrl)
  const proposal = main(client).getByTestId('proposal').first()
  await expect(proposal).toContainText('Fred Freelancer')
  await click(client, 'Accept', proposal)
  await expect(main(client).getByTestId('installment-1')).toContainText('Calculations')
  await expect(main(client).getByTestId('installment-2')).toContainText('Drawings')
  await click(client, 'Fund', main(client).getByTestId('installment-1'))
  await click(client, 'Fund', main(client).getByTestId('installment-2'))

  // The freelancer sees the contract and submits both installments.
  await go(freelancer, `${server.base}/projects/freelancer`)
  await main(freelancer).getByRole('link', { name: `Timber ${word} structural check` }).click()
  await freelancer.waitForLoadState('networkidle')
  await expect(freelancer).toHaveURL(`${server.base}/projects/freelancer/contract/${projectId}`)
  for (const n of [1, 2]) {
    const item = main(freelancer).getByTestId(`installment-${n}`)
    await item.getByLabel('What you deliver').fill(`Installment ${n} delivered.`)
    await click(freelancer, 'Submit work', item)
    await expect(main(freelancer).getByTestId(`installment-${n}`)).toContainText('Submitted')
  }

  // The client approves both and completes the project.
  await go(client, projectUrl)
  for (const n of [1, 2]) await click(client, 'Approve', main(client).getByTestId(`installment-${n}`))
  await click(client, 'Mark as completed')
  await expect(main(client).getByText('Completed').first()).toBeVisible()

  // Both review; each review shows once both have written.
  for (const [page, text] of [
    [client, 'Careful calculations, clear drawings.'],
    [freelancer, 'Quick answers and a clear brief.'],
  ] as const) {
    await go(page, `${server.base}/reviews`)
    const form = main(page).getByTestId('review-form').first()
    await form.getByLabel('5 ★').check()
    await form.getByLabel('Your review').fill(text)
    await click(page, 'Publish review', form)
  }
  await go(freelancer, `${server.base}/reviews`)
  await expect(main(freelancer).getByTestId('review')).toContainText('Careful calculations, clear drawings.')
  await go(client, `${server.base}/reviews`)
  await expect(main(client).getByTestId('review')).toContainText('Quick answers and a clear brief.')
})
