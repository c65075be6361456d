import { expect, test, type Browser, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { clickIn, hiredProject } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { shellApi } from './shell-api'
import { jsEnabled } from './project-js'

// Issue 18 item 2 end to end (decisions 230–232), with JavaScript on and off and on PostgreSQL: a
// freelancer files a complaint about a funded installment, which holds its money; the client, the
// other party, reads it and answers; an admin refuses a split larger than what is held (named on
// the field), then splits it; both parties see the money move on their statements and the contract
// page, and the complaint resolved with what was decided. An admin handling a complaint about a
// chat room reads that room, read-only (decision 233). Axe on each screen (with JavaScript).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')
const chip = (page: Page) => main(page).getByTestId('status-chip').first()
const signedIn = (browser: Browser, email: string) => signInAs(browser, shell().base, email)
const { call, login } = shellApi(() => shell().base)
const axe = async (page: Page) => {
  if (jsEnabled()) await expectNoAxeViolations(page)
}

test('a complaint about a funded installment is a dispute: the client answers, an admin splits the money, both see it move', async ({
  browser,
}) => {
  const word = `d${Date.now().toString(36)}`
  const title = `Basement waterproofing ${word}`
  const { clientToken, projectId, installmentIds } = await hiredProject(shell().base, shell().db, {
    title,
    description:
      'Design the waterproofing of a basement that floods after heavy rain, with drawings and a short report.',
    coverLetter: 'I design basement waterproofing every month and can deliver the drawings within two weeks.',
    durationDays: 14,
    installments: [{ title: 'Drawings', amountMinor: 100000 }],
  })
  await fundByApi(shell().base, clientToken, projectId, installmentIds)

  // The freelancer files it about the funded installment: its money is held.
  const fred = await signedIn(browser, accounts.freelancer.email)
  await fred.goto(`${shell().base}/ticketSupport/addComplaints?subject=installment:${installmentIds[0]}`)
  const form = main(fred).getByTestId('complaint-form')
  await form.getByLabel('What is it about?').selectOption(`installment:${installmentIds[0]}`)
  await form.getByLabel('Title').fill(`Approval withheld ${word}`)
  await form
    .getByLabel('What happened?')
    .fill(
      'The drawings were delivered two weeks ago; the client neither approves them nor says what is missing.',
    )
  await clickIn(fred, 'Send complaint', form)
  await expect(main(fred).locator('h1')).toContainText(`Approval withheld ${word}`)
  await expect(main(fred)).toContainText(
    'The money of this installment is on hold until our team decides: €1,000.00.',
  )
  await axe(fred)
  const ticketUrl = fred.url().replace(/#.*$/, '')
  const ticketId = Number(new URL(ticketUrl).pathname.split('/').at(-1))

  // The client, the other party, finds it in their list, reads it and answers; a stranger cannot.
  const clara = await signedIn(browser, accounts.client.email)
  await clara.goto(`${shell().base}/ticketSupport`)
  await main(clara)
    .getByRole('link', { name: new RegExp(`Approval withheld ${word}`) })
    .click()
  await expect(main(clara).locator('h1')).toContainText(`Approval withheld ${word}`)
  await expect(main(clara)).toContainText('This complaint names you as the other party.')
  await expect(main(clara)).toContainText('on hold until our team decides')
  await axe(clara)
  const answer = main(clara).getByTestId('reply-form')
  await answer
    .getByLabel('Your reply')
    .fill('The drawings miss the second basement wall; I asked for it in the chat.')
  await clickIn(clara, 'Send reply', answer)
  await expect(main(clara).getByTestId('ticket-message')).toHaveCount(2)
  const cora = await signedIn(browser, accounts.company.email)
  await cora.goto(ticketUrl)
  await expect(cora).toHaveURL(/\/auth\/not-found$/)
  await cora.context().close()

  // The admin: what is held; a split refunding all of it is refused on the field; then 400 back, the rest released.
  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/complaints/${ticketId}`)
  await expect(main(sam).getByTestId('ticket-message').nth(1)).toContainText(
    'The drawings miss the second basement wall',
  )
  const dispute = main(sam).getByTestId('dispute')
  await expect(dispute.getByTestId('dispute-held')).toHaveText('Held for this installment: €1,000.00')
  await axe(sam)
  const decide = dispute.getByTestId('decide-form')
  await decide.getByLabel('Decision').selectOption('split')
  await decide.getByLabel('Refunded to the client if you split (EUR)').fill('1000.00')
  await decide
    .getByLabel('Reason (both sides are told)')
    .fill('The second wall is missing from the drawings; the rest is usable.')
  await clickIn(sam, 'Decide and move the money', decide)
  await expect(dispute.locator('#decide-refund-error')).toHaveText(
    'Enter an amount above zero and below what is held, for example 250.00',
  )
  await decide.getByLabel('Decision').selectOption('split')
  await decide.getByLabel('Refunded to the client if you split (EUR)').fill('400.00')
  await decide
    .getByLabel('Reason (both sides are told)')
    .fill('The second wall is missing from the drawings; the rest is usable.')
  await clickIn(sam, 'Decide and move the money', decide)
  // The money moves only from the step that names both amounts (decision 310).
  await expect(main(sam).getByTestId('confirm-step')).toContainText(
    'Refund €400.00 to the client and release €600.00 to the freelancer?',
  )
  await clickIn(sam, 'Yes, move the money', main(sam).getByTestId('confirm-step'))
  await expect(sam.getByText('The dispute is decided and the money has moved.')).toBeVisible()
  await expect(chip(sam)).toHaveText('Resolved')
  await expect(main(sam).getByTestId('dispute-decided')).toHaveText(
    'Decided: €400.00 refunded to the client, the rest released to the freelancer.',
  )
  await expect(main(sam).getByTestId('timeline').locator('li').last()).toContainText(
    'Sam Support: decided the dispute (Open → Resolved) — €400.00 refunded to the client, €600.00 released to the freelancer — The second wall is missing from the drawings; the rest is usable.',
  )
  await axe(sam)
  // The admin audit says the decision's amounts as money in its reader's language (issue 39 item 4,
  // decision 321), never English words or minor units the server wrote once.
  await sam.context().addCookies([{ name: 'lang', value: 'de', url: shell().base }])
  await sam.goto(`${shell().base}/admin/audit?action=decide_dispute`)
  const decided = main(sam)
    .getByRole('row')
    .filter({ hasText: `Ticket #${ticketId}` })
  await expect(decided).toContainText('Streitfall entschieden')
  await expect(decided).toContainText(
    '400,00 € an den Auftraggeber erstattet, 600,00 € an den Freelancer freigegeben — The second wall is missing',
  )
  await expect(main(sam)).not.toContainText('split')
  await sam.context().clearCookies({ name: 'lang' })

  // Both parties: the complaint resolved with the decision, the money moved.
  await fred.goto(ticketUrl)
  await expect(chip(fred)).toHaveText('Resolved')
  await expect(main(fred).getByTestId('dispute-decided')).toHaveText(
    'Our team decided: €400.00 went back to the client and the rest was released to the freelancer.',
  )
  await axe(fred)
  await fred.goto(`${shell().base}/projects/freelancer/contract/${projectId}`)
  await expect(main(fred).getByTestId('installment-1')).toContainText('Released')
  await expect(main(fred).getByTestId('refunds')).toContainText(`Complaint #${ticketId}`)
  await fred.goto(`${shell().base}/statements`)
  // 600 released less the 10 % platform fee.
  await expect(main(fred).getByTestId('movement').filter({ hasText: title })).toContainText('+€540.00')
  await axe(fred)
  // One notification of the decision, naming the work and the project (issue 39 item 6); the
  // complaint's author is not told a second time that their complaint was resolved.
  const notified = (kind: string) => main(fred).getByTestId('notification').filter({ hasText: kind })
  await expect(async () => {
    await fred.goto(`${shell().base}/notifications`)
    await expect(notified('Dispute decided').filter({ hasText: title })).toHaveCount(1, { timeout: 1_000 })
  }).toPass({ timeout: 15_000 })
  await expect(notified('Dispute decided').filter({ hasText: title })).toContainText(
    `Our team decided the dispute about “Drawings” on “${title}”: €600.00 to you, €400.00 back to Clara Client.`,
  )
  await expect(notified(`Approval withheld ${word}`).filter({ hasText: 'resolved' })).toHaveCount(0)

  await clara.goto(ticketUrl)
  await expect(chip(clara)).toHaveText('Resolved')
  await expect(main(clara).getByTestId('dispute-decided')).toBeVisible()
  await clara.goto(`${shell().base}/statements`)
  // Held 1,030 (the price and its 3 % fee): 412 back to the card, 618 released; nothing left held.
  const rows = main(clara).getByTestId('movement').filter({ hasText: title })
  await expect(rows).toHaveCount(3)
  await expect(rows.nth(0)).toContainText('+€1,030.00')
  await expect(
    main(clara).getByTestId('movement').filter({ hasText: title }).filter({ hasText: '-€412.00' }),
  ).toHaveCount(1)
  await expect(
    main(clara).getByTestId('movement').filter({ hasText: title }).filter({ hasText: '-€618.00' }),
  ).toHaveCount(1)
  await expect(rows.nth(2).locator('td').last()).toHaveText('€0.00')
  await axe(clara)
  // The client's notification says the decision from her side.
  await clara.goto(`${shell().base}/notifications`)
  await expect(
    main(clara).getByTestId('notification').filter({ hasText: 'Dispute decided' }).filter({ hasText: title }),
  ).toContainText(`“${title}”: €400.00 back to you, €600.00 to Fred Freelancer.`)
})

test('an admin handling a complaint about a chat room reads the room, read-only; the reading is audited', async ({
  browser,
}) => {
  const word = `r${Date.now().toString(36)}`
  const { clientToken, freelancerToken, projectId } = await hiredProject(shell().base, shell().db, {
    title: `Garage slab ${word}`,
    description: 'Check the cracked slab of a garage and propose a repair with a short report.',
    coverLetter: 'I check garage slabs every week and can send the report within a week.',
    durationDays: 7,
    installments: [{ title: 'Report', amountMinor: 30000 }],
  })
  const room = await shell()
    .db.db.selectFrom('chat_room')
    .select('id')
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow()
  await call('POST', `chat/${room.id}`, clientToken, {
    clientMessageId: `threat-${word}`,
    text: `Send the report tonight or I will post your address ${word}.`,
  })
  const filed = await call('POST', 'complaints', freelancerToken, {
    subject: `chat_room:${room.id}`,
    title: `Threats in the chat ${word}`,
    description: 'The client threatens to publish my home address if the report is not sent tonight.',
  })

  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/complaints/${filed.id}`)
  await main(sam).getByRole('link', { name: 'Read the chat room' }).click()
  await expect(main(sam).locator('h1')).toHaveText(`Chat room of complaint #${filed.id}`)
  await expect(
    main(sam)
      .getByTestId('room-message')
      .filter({ hasText: `post your address ${word}` }),
  ).toHaveCount(1)
  // Read-only: nothing on the page sends or changes anything.
  await expect(main(sam).locator('form, textarea, input')).toHaveCount(0)
  await axe(sam)
  const audit = await call(
    'GET',
    `Admin/audit?objectType=chat_room&objectId=${room.id}`,
    await login(accounts.admin.email),
  )
  expect(audit.data[0]).toMatchObject({
    action: 'read_room',
    params: { complaintId: filed.id },
    actor: { name: 'Sam Support' },
  })
})

test('every dispute lands in the queue: a disputed refund with both statements and a date, a contract complaint that holds an installment; both decided there', async ({
  browser,
}) => {
  const word = `q${Date.now().toString(36)}`
  const { clientToken, freelancerToken, projectId, installmentIds } = await hiredProject(
    shell().base,
    shell().db,
    {
      title: `Retaining wall ${word}`,
      description: 'Design a two-metre retaining wall for a sloped garden, with drawings and calculations.',
      coverLetter: 'I design retaining walls for gardens and can deliver both stages within three weeks.',
      durationDays: 21,
      installments: [
        { title: 'Calculations', amountMinor: 80000 },
        { title: 'Drawings', amountMinor: 50000 },
      ],
    },
  )
  await fundByApi(shell().base, clientToken, projectId, installmentIds)
  const asked = await call('POST', `RefundRequest/${projectId}/${installmentIds[0]}/20000`, clientToken, {
    reason: `The calculations ignore the surcharge of the driveway ${word}.`,
  })
  await call('POST', `refund-requests/${asked.id}/decline`, freelancerToken, {
    reason: 'The driveway surcharge is in section 3 of the calculations.',
  })
  const disputed = await call('POST', `refund-requests/${asked.id}/dispute`, clientToken)

  // Support's queue, filtered to the disputes with money on hold: the amount and the date to decide by.
  const sam = await signedIn(browser, accounts.admin.email)
  await sam.goto(`${shell().base}/admin/complaints`)
  await main(sam).getByLabel('Disputes').selectOption('held')
  await clickIn(sam, 'Show', main(sam))
  await expect(sam).toHaveURL(/dispute=held/)
  const card = main(sam).getByTestId('queue-ticket').filter({ hasText: word })
  await expect(card.getByTestId('queue-held')).toContainText('€800.00 on hold · decide by')
  await axe(sam)
  await card.getByRole('link').click()
  await expect(main(sam).getByTestId('dispute-decide-by')).toContainText('To be decided by')
  const messages = main(sam).getByTestId('ticket-message')
  await expect(messages).toHaveCount(2)
  await expect(messages.nth(1)).toContainText('section 3 of the calculations')
  await expect(main(sam).getByRole('link', { name: 'Read the contract’s chat' })).toBeVisible()
  await axe(sam)

  // The freelancer, the other party, reads the same date on the ticket.
  const fred = await signedIn(browser, accounts.freelancer.email)
  await fred.goto(`${shell().base}/ticketSupport/${disputed.complaintId}`)
  await expect(main(fred)).toContainText('Our team decides by')
  await axe(fred)

  const decide = main(sam).getByTestId('decide-form')
  await decide.getByLabel('Decision').selectOption('release')
  await decide.getByLabel('Reason (both sides are told)').fill('The surcharge is in section 3.')
  await clickIn(sam, 'Decide and move the money', decide)
  await clickIn(sam, 'Yes, move the money', main(sam).getByTestId('confirm-step'))
  await expect(sam.getByText('The dispute is decided and the money has moved.')).toBeVisible()

  // A complaint about the contract holds nothing until support holds one of its installments.
  const filed = await call('POST', 'complaints', clientToken, {
    subject: `contract:${await contractId(projectId)}`,
    title: `The drawings stopped ${word}`,
    description: 'No drawings and no answer for three weeks; the builder is waiting.',
  })
  await sam.goto(`${shell().base}/admin/complaints/${filed.id}`)
  const hold = main(sam).getByTestId('hold-form')
  await hold.getByLabel('Installment').selectOption(String(installmentIds[1]))
  await clickIn(sam, 'Hold the money', hold)
  await expect(
    sam.getByText('The money is on hold for this dispute, and both sides were told.'),
  ).toBeVisible()
  await expect(main(sam).getByTestId('dispute-held')).toHaveText('Held for this installment: €500.00')
  await expect(main(sam).getByTestId('hold-form')).toHaveCount(0)
  await axe(sam)
  const second = main(sam).getByTestId('decide-form')
  await second.getByLabel('Decision').selectOption('refund')
  await second.getByLabel('Reason (both sides are told)').fill('No drawings were delivered.')
  await clickIn(sam, 'Decide and move the money', second)
  await clickIn(sam, 'Yes, move the money', main(sam).getByTestId('confirm-step'))
  await expect(main(sam).getByTestId('dispute-decided')).toHaveText(
    'Decided: €500.00 refunded to the client, the rest released to the freelancer.',
  )
})

const contractId = async (projectId: number) =>
  (
    await shell()
      .db.db.selectFrom('contract')
      .select('id')
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
  ).id
