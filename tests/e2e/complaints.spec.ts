import { expect, test, type Browser, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { shellApi } from './shell-api'
import { expectNoAxeViolations } from './axe'
import { submitAndWait } from './form-submit'
import { jsEnabled } from './project-js'

// Complaints and support tickets end to end (issue 18 item 1): a freelancer files a complaint about
// their contract with an attachment; support (a SuperAdmin) finds it in the queue, takes it,
// replies and moves it to waiting on the user with a reason; the freelancer answers, which brings
// it back to support; support resolves it and the audit trail lists every step. The other side of
// the contract reads the ticket as its other party (decision 232), anyone else gets not found, and
// no one but a SuperAdmin reaches /admin. JavaScript on
// and off; axe on each page (with JavaScript).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const ADMIN = accounts.admin.email

const { call, login } = shellApi(() => shell().base)

/** A project of Clara's with Fred hired on it: answers its contract. */
async function hired(word: string) {
  const [client, freelancer] = await Promise.all([
    login(accounts.client.email),
    login(accounts.freelancer.email),
  ])
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const project = await call('POST', 'projects', client, {
    title: `Retaining wall ${word} design`,
    description:
      'Design a two metre reinforced concrete retaining wall along a garden, with drawings and a short calculation report.',
    subcategoryId: sub.id,
    budgetType: 'fixed',
    budgetMinor: 90000,
    currency: 'EUR',
    durationDays: 14,
    remote: true,
    publish: true,
  })
  const proposal = await call('POST', `projects/${project.id}/proposal`, freelancer, {
    coverLetter:
      'I design retaining walls every month and can send drawings and calculations within ten days.',
    bidMinor: 85000,
    durationDays: 10,
  })
  const contract = await call('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, client)
  return { contractId: contract.id as number, title: project.title as string }
}

const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const main = (page: Page) => page.locator('main')
const chip = (page: Page) => main(page).getByTestId('status-chip').first()
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)

test('a freelancer complains about a contract with a file; support replies, waits on the user, the user answers, support resolves', async ({
  browser,
}) => {
  const js = jsEnabled()
  const word = `c${Date.now().toString(36)}`
  const { contractId, title } = await hired(word)
  const fred = await signedIn(browser, accounts.freelancer.email)

  // The profile menu's "View All Complaints", then "Add a complaint".
  await fred.goto(`${shell().base}/ticketSupport`)
  await expect(main(fred).locator('h1')).toHaveText('My complaints')
  await expectNoAxeViolations(fred)
  await main(fred).getByRole('link', { name: 'Add a complaint' }).first().click()
  await expect(main(fred).locator('h1')).toHaveText('Add a complaint')
  await expectNoAxeViolations(fred)

  // Too short a description is refused, naming the field, and nothing is filed.
  const form = main(fred).getByTestId('complaint-form')
  await form.getByLabel('What is it about?').selectOption(`contract:${contractId}`)
  await form.getByLabel('Title').fill(`Drawings missing ${word}`)
  await form
    .getByLabel('What happened?')
    .evaluate((el: HTMLTextAreaElement) => el.removeAttribute('minlength'))
  await form.getByLabel('What happened?').fill('Late')
  await submitAndWait(fred, form.getByRole('button', { name: 'Send complaint' }), false)
  await expect(main(fred).locator('#field-description-error')).toHaveText('Please write a little more')

  await form.getByLabel('What is it about?').selectOption(`contract:${contractId}`)
  await form
    .getByLabel('What happened?')
    .fill('The drawings were promised for Monday and have not arrived; the client is waiting for them.')
  await form
    .getByLabel('Attachments (optional)')
    .setInputFiles({ name: 'schedule.pdf', mimeType: 'application/pdf', buffer: pdf })
  await form.getByRole('button', { name: 'Send complaint' }).click()
  await expect(main(fred).locator('h1')).toContainText(`Drawings missing ${word}`)
  await expect(fred.getByText('Your complaint was sent.')).toBeVisible()
  await expect(chip(fred)).toHaveText('Open')
  await expect(main(fred)).toContainText(`Contract · ${title} (Clara Client)`)
  await expect(main(fred).getByRole('link', { name: 'schedule.pdf' })).toBeVisible()
  await expectNoAxeViolations(fred)
  const ticketUrl = fred.url().replace(/#.*$/, '')
  const ticketId = Number(new URL(ticketUrl).pathname.split('/').at(-1))

  // The other side of the contract reads it as the other party (decision 232); anyone else gets
  // not found; nobody but a SuperAdmin reaches /admin.
  const clara = await signedIn(browser, accounts.client.email)
  await clara.goto(ticketUrl)
  await expect(main(clara).locator('h1')).toContainText(`Drawings missing ${word}`)
  await expect(main(clara)).toContainText('This complaint names you as the other party.')
  const cora = await signedIn(browser, accounts.company.email)
  await cora.goto(ticketUrl)
  await expect(cora).toHaveURL(/\/auth\/not-found$/)
  await cora.context().close()
  await clara.goto(`${shell().base}/admin/complaints`)
  await expect(clara).toHaveURL(/\/auth\/unauthorized$/)
  await clara.context().close()

  // Support: the queue, filtered, then the ticket.
  const sam = await signedIn(browser, ADMIN)
  await sam.goto(`${shell().base}/admin/complaints`)
  await expect(main(sam).locator('h1')).toHaveText('Complaints and support tickets')
  await main(sam).getByLabel('State').selectOption('open')
  await main(sam).getByLabel('About').selectOption('contract')
  await main(sam).getByRole('button', { name: 'Show' }).click()
  await expect(sam).toHaveURL(/state=open&kind=contract/)
  await expectNoAxeViolations(sam)
  await main(sam)
    .getByRole('link', { name: `#${ticketId}: Drawings missing ${word}` })
    .click()
  await expect(main(sam).locator('h1')).toHaveText(`#${ticketId}: Drawings missing ${word}`)
  await expectNoAxeViolations(sam)

  await main(sam).getByRole('button', { name: 'Take this ticket' }).click()
  await expect(main(sam).locator('dd').filter({ hasText: 'Sam Support' })).toBeVisible()
  // Once it is Sam's, taking it is no longer offered to Sam.
  await expect(main(sam).getByRole('button', { name: 'Take this ticket' })).toHaveCount(0)
  const reply = main(sam).getByTestId('reply-form')
  await reply
    .getByLabel('Reply to the user')
    .fill('Could you attach the message where the drawings were promised?')
  await reply.getByRole('button', { name: 'Send reply' }).click()
  await expect(main(sam).getByTestId('ticket-message')).toHaveCount(2)
  const move = async (state: string, reason: string) => {
    const stateForm = main(sam).getByTestId('state-form')
    await stateForm.getByLabel('New state').selectOption({ label: state })
    await stateForm.getByLabel('Reason (the user sees it)').fill(reason)
    await stateForm.getByRole('button', { name: 'Change state' }).click()
    await expect(chip(sam)).toHaveText(state)
  }
  await move('Waiting on the user', 'We need the promise in writing.')

  // The user sees the reply and the state, and answers.
  await fred.goto(ticketUrl)
  await expect(chip(fred)).toHaveText('Waiting on the user')
  await expect(main(fred)).toContainText('Support is waiting for your reply.')
  await expect(main(fred).getByTestId('ticket-message').nth(1)).toContainText(
    'Could you attach the message where the drawings were promised?',
  )
  await main(fred)
    .getByTestId('reply-form')
    .getByLabel('Your reply')
    .fill('Here it is: the freelancer wrote it in the chat on the 3rd.')
  await main(fred).getByTestId('reply-form').getByRole('button', { name: 'Send reply' }).click()
  await expect(chip(fred)).toHaveText('In progress')
  await expect(main(fred).getByTestId('ticket-message')).toHaveCount(3)

  // Support resolves it; the audit trail lists every step with its reason.
  await sam.reload()
  await expect(chip(sam)).toHaveText('In progress')
  await move('Resolved', 'The drawings were delivered today.')
  const audit = main(sam).getByTestId('timeline').locator('li')
  await expect(audit).toHaveCount(4)
  await expect(audit.nth(2)).toContainText(
    'Sam Support: asked the user (Open → Waiting on the user) — We need the promise in writing.',
  )
  await expect(audit.nth(3)).toContainText(
    'Sam Support: resolved (In progress → Resolved) — The drawings were delivered today.',
  )
  await expectNoAxeViolations(sam)

  await fred.goto(`${shell().base}/ticketSupport`)
  await expect(
    main(fred)
      .getByTestId('ticket')
      .filter({ hasText: `Drawings missing ${word}` })
      .getByTestId('status-chip'),
  ).toHaveText('Resolved')
  if (js) await expectNoAxeViolations(fred)
})
