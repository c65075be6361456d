import { expect, test, type Browser, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts, startShellServer } from './shell-server'
import { signInAs } from './shell-session'
import { payInCheckout } from './checkout'
import { settle } from './settle'
import { confirmIn } from './confirm'

// Issue 6 end to end, with JavaScript on and off, on SQLite and PostgreSQL, as two users in two
// browser contexts: a client creates a project with an attachment and installments; a freelancer
// finds it by search and filter, saves it, asks a question and proposes; the client accepts; both
// see the contract; the installments are funded, submitted and approved; the client completes the
// project; both review, and each review shows on /reviews and on the other's public profile.
// On the way: the client edits the project before proposals arrive, the freelancer saves it from
// the list (by keyboard) and finds it on Saved projects, and edits the proposal (the client sees
// the earlier version). A second test covers withdraw, decline with a reason, and delete.
// (funding goes through the pay page and the sandbox checkout: four more pages per installment)
test.describe.configure({ mode: 'serial', timeout: 420_000 })
let server: Awaited<ReturnType<typeof startShellServer>>

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(180_000)
  server = await startShellServer(testInfo)
})
test.afterAll(async () => {
  await server?.stop()
})

const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

const signedIn = (browser: Browser, email: string) => signInAs(browser, server.base, email)

/** Opens a page and waits until it is quiet, so (with JavaScript) it is hydrated before we type. */
async function go(page: Page, url: string) {
  await page.goto(url)
  await settle(page)
}

async function click(page: Page, name: string | RegExp, scope = page.locator('main')) {
  await scope.getByRole('button', { name }).first().click()
  await settle(page)
}

const userId = async (email: string) =>
  (
    await server.db.db
      .selectFrom('app_user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow()
  ).id

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
  await main(client)
    .getByLabel('Description')
    .fill(
      `Check the timber ${word} over the creek: calculations for the deck and the abutments, with drawings.`,
    )
  await main(client).getByLabel('Subcategory').selectOption({ label: 'Structural Engineering' })
  await main(client).getByLabel('Budget', { exact: true }).fill('1500')
  await main(client).getByLabel('Duration in days').fill('30')
  await main(client).getByLabel('Installment 1').fill('Calculations')
  await main(client).getByLabel('Amount 1').fill('1000')
  await main(client).getByLabel('Installment 2').fill('Drawings')
  await main(client).getByLabel('Amount 2').fill('500')
  await main(client)
    .getByLabel('Attachment')
    .setInputFiles({ name: 'site-survey.pdf', mimeType: 'application/pdf', buffer: pdf })
  await click(client, 'Publish project')
  await expect(main(client).getByText('Your project is published.')).toBeVisible()
  await expect(main(client).getByRole('link', { name: 'site-survey.pdf' })).toBeVisible()
  const projectUrl = client.url().split('?')[0]
  const projectId = projectUrl.split('/').pop()

  // Before any proposal the client may edit: the form comes back filled in, the plan is kept.
  await main(client).getByRole('link', { name: 'Edit project' }).click()
  await settle(client)
  await expect(main(client).getByLabel('Title', { exact: true })).toHaveValue(
    `Timber ${word} structural check`,
  )
  await expect(main(client).getByLabel('Amount 2')).toHaveValue('500.00')
  await expectNoAxeViolations(client)
  await main(client).getByLabel('Duration in days').fill('28')
  await click(client, 'Save changes')
  await expect(main(client).getByText('Your changes are saved.')).toBeVisible()
  await expect(client).toHaveURL(new RegExp(`/projects/client/details/${projectId}`))

  // The freelancer finds it by full text and a filter, saves it, asks, proposes.
  await go(freelancer, `${server.base}/projects/getprojects?search=${word}`)
  await expect(main(freelancer).getByLabel('Keywords')).toHaveValue(word)
  await main(freelancer).getByLabel('Payment').selectOption('fixed')
  await click(freelancer, 'Apply')
  await expect(freelancer).toHaveURL(new RegExp(`search=${word}.*budgetType=fixed`))
  // Saved from the list by keyboard; the list comes back with its filters and the button says so.
  const card = main(freelancer).getByTestId('project-card').filter({ hasText: word })
  await card.getByRole('button', { name: 'Save' }).focus()
  await freelancer.keyboard.press('Enter')
  await settle(freelancer)
  await expect(freelancer).toHaveURL(new RegExp(`search=${word}.*budgetType=fixed`))
  await expect(
    main(freelancer)
      .getByTestId('project-card')
      .filter({ hasText: word })
      .getByRole('button', { name: /Saved/ }),
  ).toBeVisible()
  await expectNoAxeViolations(freelancer)
  await go(freelancer, `${server.base}/projects/wishlist`)
  await expect(main(freelancer).getByTestId('project-card').filter({ hasText: word })).toBeVisible()
  await expectNoAxeViolations(freelancer)
  await main(freelancer)
    .getByRole('link', { name: `Timber ${word} structural check` })
    .click()
  await settle(freelancer)
  await expect(freelancer).toHaveURL(`${server.base}/projects/details/${projectId}`)
  await expect(main(freelancer).getByRole('button', { name: /Saved/ })).toBeVisible()
  await expect(main(freelancer).getByText('Calculations — ').first()).toBeVisible()
  await click(freelancer, 'Follow updates')
  await expect(main(freelancer).getByRole('button', { name: 'Stop following' })).toBeVisible()
  await main(freelancer).getByLabel('Ask a question').fill('Are there drawings of the existing abutments?')
  await click(freelancer, 'Post')
  await expect(main(freelancer).getByText('Are there drawings of the existing abutments?')).toBeVisible()
  await main(freelancer)
    .getByLabel('Cover letter')
    .fill('I check timber bridges to Eurocode 5 and can deliver both installments in three weeks.')
  await main(freelancer)
    .getByLabel(/Your price/)
    .fill('1400')
  await main(freelancer).getByLabel('Duration in days').fill('21')
  await main(freelancer).getByLabel('Installment 1').fill('Calculations')
  await main(freelancer).getByLabel('Amount 1').fill('900')
  await main(freelancer).getByLabel('Installment 2').fill('Drawings')
  await main(freelancer).getByLabel('Amount 2').fill('500')
  await click(freelancer, 'Send proposal')
  // A confirmation, and the proposal shown once: its edit form is folded away.
  await expect(main(freelancer).getByTestId('sent-notice')).toContainText('Your proposal is sent.')
  await expect(main(freelancer).getByRole('heading', { name: 'Your proposal', exact: true })).toBeVisible()
  await expect(main(freelancer).getByLabel('Cover letter')).toBeHidden()
  // While pending the freelancer edits it; the earlier version is kept for the client.
  await main(freelancer).getByRole('heading', { name: 'Edit your proposal' }).click()
  await expect(main(freelancer).getByLabel(/Your price/)).toHaveValue('1400.00')
  await main(freelancer).getByLabel('Duration in days').fill('20')
  await click(freelancer, 'Save changes')
  await expect(main(freelancer).getByText('version 2')).toBeVisible()
  await expect(main(freelancer).getByText('20 days').first()).toBeVisible()
  await expectNoAxeViolations(freelancer)
  await go(freelancer, `${server.base}/projects/freelancer/porposals`)
  await expect(main(freelancer).getByTestId('my-proposal').filter({ hasText: word })).toContainText('Pending')

  // The client accepts (a plain form); the contract starts with the freelancer's installments.
  await go(client, projectUrl)
  // The client answers the public question first.
  const questions = main(client).locator('#questions')
  await questions.getByLabel('Answer').fill('Yes: the 1998 drawings are attached to the survey.')
  await click(client, 'Post', questions)
  await expect(questions.getByText('Yes: the 1998 drawings are attached to the survey.')).toBeVisible()
  const proposal = main(client).getByTestId('proposal').first()
  await expect(proposal).toContainText('Fred Freelancer')
  // The proposer's name opens their profile.
  await expect(proposal.getByRole('link', { name: 'Fred Freelancer', exact: true })).toHaveAttribute(
    'href',
    `/profiles/freelancers/${await userId(accounts.freelancer.email)}`,
  )
  await expect(proposal).toContainText('version 2')
  await proposal.getByText('1 earlier version').click()
  await expect(proposal.getByTestId('proposal-revision')).toContainText('21 days')
  await expect(main(client).getByRole('link', { name: 'Edit project' })).toHaveCount(0)
  await expectNoAxeViolations(client)
  await click(client, 'Accept', proposal)
  await expect(main(client).getByTestId('accepted-notice')).toContainText('Proposal accepted')
  // Completing needs every installment approved: the button is not offered yet (it would answer 409).
  await expect(main(client).getByRole('button', { name: 'Mark as completed' })).toHaveCount(0)
  await expect(main(client).getByTestId('installment-1').getByTestId('status-chip')).toHaveText(
    'Awaiting funding',
  )
  // The project's file is now for the two participants only.
  const fileUrl = `${server.base}${await main(client).getByRole('link', { name: 'site-survey.pdf' }).getAttribute('href')}`
  expect((await client.request.get(fileUrl)).status()).toBe(200)
  expect((await freelancer.request.get(fileUrl)).status()).toBe(200)
  const company = await signedIn(browser, accounts.company.email)
  expect((await company.request.get(fileUrl)).status()).toBe(404)
  await company.context().close()
  await expect(main(client).getByTestId('installment-1')).toContainText('Calculations')
  await expect(main(client).getByTestId('installment-2')).toContainText('Drawings')
  // Each move is awaited on the page (a client-side submit does not reset the load state).
  for (const n of [1, 2]) {
    await click(client, 'Fund', main(client).getByTestId(`installment-${n}`))
    await payInCheckout(client)
    await expect(main(client).getByTestId(`installment-${n}`)).toContainText('Funded')
  }

  // The freelancer sees the contract and submits both installments.
  // The project left "open": the questions stay readable, and closed.
  await go(freelancer, `${server.base}/projects/details/${projectId}`)
  await expect(main(freelancer).getByText('Yes: the 1998 drawings are attached to the survey.')).toBeVisible()
  await expect(
    main(freelancer).getByText('Questions are closed: the project is no longer open.'),
  ).toBeVisible()
  await expect(main(freelancer).getByLabel('Ask a question (everyone can read it)')).toHaveCount(0)
  await go(freelancer, `${server.base}/projects/freelancer`)
  await main(freelancer)
    .getByRole('link', { name: `Timber ${word} structural check` })
    .click()
  await settle(freelancer)
  await expect(freelancer).toHaveURL(`${server.base}/projects/freelancer/contract/${projectId}`)
  for (const n of [1, 2]) {
    const item = main(freelancer).getByTestId(`installment-${n}`)
    await item.getByLabel('What you deliver').fill(`Installment ${n} delivered.`)
    await click(freelancer, 'Submit work', item)
    await expect(main(freelancer).getByTestId(`installment-${n}`)).toContainText('Submitted')
  }

  // The client approves both and completes the project.
  await go(client, projectUrl)
  for (const n of [1, 2]) {
    await confirmIn(
      client,
      'Approve',
      /^Release €[\d,.]+ to Fred Freelancer\?$/,
      main(client).getByTestId(`installment-${n}`),
    )
    // Approving releases the held money to the freelancer at once.
    await expect(main(client).getByTestId(`installment-${n}`)).toContainText('Released')
  }
  await click(client, 'Mark as completed')
  // The button goes only once the completion is stored (a 'Completed' text alone may be older).
  await expect(main(client).getByRole('button', { name: 'Mark as completed' })).toHaveCount(0)
  await expect(main(client).getByText('Completed').first()).toBeVisible()

  // Both review, reaching /reviews from the completed contract; each review shows once both have written.
  await go(freelancer, `${server.base}/projects/freelancer/contract/${projectId}`)
  await expectNoAxeViolations(freelancer)
  for (const [page, text] of [
    [client, 'Careful calculations, clear drawings.'],
    [freelancer, 'Quick answers and a clear brief.'],
  ] as const) {
    await main(page).getByRole('link', { name: 'Write a review' }).first().click()
    await settle(page)
    await expect(page).toHaveURL(`${server.base}/reviews`)
    const form = main(page).getByTestId('review-form').first()
    await form.getByLabel('5 stars').check()
    await form.getByLabel('Your review').fill(text)
    await click(page, 'Publish review', form)
    await expect(main(page).getByRole('status').filter({ hasText: 'your review is saved' })).toBeVisible()
    await expect(main(page).getByTestId('review-form')).toHaveCount(0)
  }
  await go(freelancer, `${server.base}/reviews`)
  await expect(main(freelancer).getByTestId('review')).toContainText('Careful calculations, clear drawings.')
  await go(client, `${server.base}/reviews`)
  await expect(main(client).getByTestId('review')).toContainText('Quick answers and a clear brief.')

  // Both public profiles show the review and the average, to anyone.
  const [fredId, claraId] = [await userId(accounts.freelancer.email), await userId(accounts.client.email)]
  await go(client, `${server.base}/profiles/freelancers/${fredId}`)
  await expect(main(client).getByTestId('profile-review')).toContainText(
    'Careful calculations, clear drawings.',
  )
  await expect(main(client).getByTestId('profile-reviews')).toContainText('★ 5.0 (1 review)')
  await expectNoAxeViolations(client)
  await go(freelancer, `${server.base}/profiles/clients/${claraId}`)
  await expect(main(freelancer).getByTestId('profile-review')).toContainText(
    'Quick answers and a clear brief.',
  )
  await expect(main(freelancer).getByTestId('profile-review')).toContainText(
    `Fred Freelancer on “Timber ${word} structural check”`,
  )
  await expectNoAxeViolations(freelancer)
})

/** Publishes a small remote fixed-price project through the form; returns the client's details URL. */
async function postProject(page: Page, title: string) {
  await go(page, `${server.base}/projects/create`)
  const main = page.locator('main')
  await main.getByLabel('Title', { exact: true }).fill(title)
  await main
    .getByLabel('Description')
    .fill(`${title}: a short check of an existing structure, with a written report.`)
  await main.getByLabel('Subcategory').selectOption({ label: 'Structural Engineering' })
  await main.getByLabel('Budget', { exact: true }).fill('800')
  await click(page, 'Publish project')
  await expect(main.getByText('Your project is published.')).toBeVisible()
  return page.url().split('?')[0]
}

async function proposeOn(page: Page, projectId: string) {
  await go(page, `${server.base}/projects/details/${projectId}`)
  const main = page.locator('main')
  await main
    .getByLabel('Cover letter')
    .fill('I have checked many similar structures and write clear, short reports.')
  await main.getByLabel(/Your price/).fill('750')
  await main.getByLabel('Duration in days').fill('10')
  await click(page, 'Send proposal')
  await expect(main.getByRole('heading', { name: 'Your proposal', exact: true })).toBeVisible()
}

test('withdraw a proposal; decline one with a reason the freelancer reads; delete a project without a contract', async ({
  browser,
}) => {
  const word = `lintel${Date.now().toString(36)}`
  const client = await signedIn(browser, accounts.client.email)
  const freelancer = await signedIn(browser, accounts.freelancer.email)
  const main = (p: Page) => p.locator('main')

  const first = await postProject(client, `Lintel ${word} survey`)
  // Attachments keep their limits, with the reason in the page's language.
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(900 * 1024)])
  await main(client)
    .getByLabel('Attachment')
    .setInputFiles({ name: 'site-photo.png', mimeType: 'image/png', buffer: png })
  await click(client, 'Upload')
  await expect(main(client).getByRole('alert')).toHaveText(
    'The file is too large: images up to 800 KB, documents up to 10 MB.',
  )
  await main(client)
    .getByLabel('Attachment')
    .setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') })
  await click(client, 'Upload')
  await expect(main(client).getByRole('alert')).toHaveText(/This kind of file cannot be attached/)
  await expect(main(client).locator('.file-list')).toHaveCount(0)
  // A document within the limit is attached, and (while the project is open) removed again.
  await main(client)
    .getByLabel('Attachment')
    .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: pdf })
  await click(client, 'Upload')
  await expect(main(client).getByRole('link', { name: 'notes.pdf' })).toBeVisible()
  await expectNoAxeViolations(client)
  await click(client, 'Remove notes.pdf')
  await expect(main(client).getByRole('link', { name: 'notes.pdf' })).toHaveCount(0)
  await proposeOn(freelancer, first.split('/').pop()!)
  await confirmIn(freelancer, 'Withdraw proposal', /^Withdraw your proposal of €[\d,.]+ for “/)
  await expect(freelancer.locator('.notices')).toContainText('Your proposal is withdrawn.')
  await expect(main(freelancer).getByText('Withdrawn')).toBeVisible()
  await expect(main(freelancer).getByRole('heading', { name: 'Edit your proposal' })).toHaveCount(0)
  await click(freelancer, 'Save')
  await expect(main(freelancer).getByRole('button', { name: /Saved/ })).toBeVisible()

  const second = await postProject(client, `Chimney ${word} survey`)
  const secondId = second.split('/').pop()!
  await proposeOn(freelancer, secondId)
  await go(client, second)
  const proposal = main(client).getByTestId('proposal').first()
  await proposal.getByLabel('Reason (optional)').fill('We chose a local engineer who can visit this week.')
  await click(client, 'Decline', proposal)
  await expect(main(client).getByTestId('proposal').first()).toContainText('Declined')
  await expectNoAxeViolations(client)
  await go(freelancer, `${server.base}/projects/details/${secondId}`)
  await expect(main(freelancer).getByTestId('reject-reason')).toContainText(
    'We chose a local engineer who can visit this week.',
  )
  await go(freelancer, `${server.base}/projects/freelancer/porposals`)
  await expect(
    main(freelancer)
      .getByTestId('my-proposal')
      .filter({ hasText: `Chimney ${word}` }),
  ).toContainText('We chose a local engineer')

  // No contract: the client may delete the project; it is gone for everyone.
  await go(client, second)
  await confirmIn(client, 'Delete', `Delete “Chimney ${word} survey” for good? This cannot be undone.`)
  await expect(client).toHaveURL(`${server.base}/projects/client`)
  await expect(client.locator('.notices')).toContainText('The project is deleted.')
  await expect(main(client).getByText(`Chimney ${word} survey`)).toHaveCount(0)
  const gone = await freelancer.goto(`${server.base}/projects/details/${secondId}`)
  expect(gone?.status()).toBe(404)

  // Saved projects: unsaving from the page removes the card.
  await go(freelancer, `${server.base}/projects/wishlist`)
  const saved = main(freelancer)
    .getByTestId('project-card')
    .filter({ hasText: `Lintel ${word} survey` })
  await expect(saved).toHaveCount(1)
  await click(freelancer, /Saved/, saved)
  await expect(saved).toHaveCount(0)

  // A company without completed work: its profile says so, and passes axe.
  await go(freelancer, `${server.base}/profiles/companies/${await userId(accounts.company.email)}`)
  await expect(main(freelancer).getByTestId('profile-reviews')).toContainText('No reviews yet')
  await expectNoAxeViolations(freelancer)
})
