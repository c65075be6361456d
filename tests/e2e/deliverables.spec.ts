import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { apiCall, clickIn, hiredProject } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { settle } from './settle'
import { confirmIn } from './confirm'
import { pdfText } from '../support/pdf-text.ts'

// Issue 40 item 1 end to end, with JavaScript on and off (decision 318): on a fixed-price
// contract the freelancer adds a deliverable to the register and issues it at P01 with a file;
// the client asks to revise and resubmit; the freelancer issues P02, the client approves it, opens
// the transmittal (page and PDF) and releases the installment through its usual confirmation.
// Then several deliverables of an installment issued at once under one transmittal that lists
// them all (issue 40: each issue of an installment's deliverables produces a transmittal).
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

async function openDeliverable(page: Page, projectId: number, number: string) {
  await page.goto(`${shell().base}/projects/register/${projectId}`)
  await settle(page)
  await main(page).getByRole('link', { name: number, exact: true }).click()
  await settle(page)
}

test('two revisions of a deliverable, then approval and release', async ({ browser }) => {
  const { clientToken, projectId, installmentIds } = await hiredProject(shell().base, shell().db, {
    title: `Mezzanine floor design ${test.info().project.name}`,
    description: 'Design a steel mezzanine floor in an existing warehouse, with drawings and calculations.',
    coverLetter: 'I design mezzanine floors every month and can deliver the package within three weeks.',
    durationDays: 21,
    installments: [
      { title: 'Design', amountMinor: 100000 },
      { title: 'Site support', amountMinor: 50000 },
    ],
  })
  await fundByApi(shell().base, clientToken, projectId, installmentIds)
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)

  // The freelancer reaches the register from the contract page and adds the deliverable.
  await freelancer.goto(`${shell().base}/projects/freelancer/contract/${projectId}`)
  await settle(freelancer)
  await main(freelancer).getByRole('link', { name: 'Deliverables register' }).click()
  await settle(freelancer)
  await expect(main(freelancer)).toContainText('No deliverables in the register yet.')
  await main(freelancer).getByLabel('Number', { exact: true }).fill('S-101')
  await main(freelancer).getByLabel('Title', { exact: true }).fill('General arrangement')
  await main(freelancer).getByLabel('Discipline', { exact: true }).fill('Structures')
  await main(freelancer).getByLabel('Installment', { exact: true }).selectOption({ label: 'Design' })
  await clickIn(freelancer, 'Add to the register')
  await expect(main(freelancer)).toContainText('S-101 is in the register.')
  await expect(main(freelancer).getByTestId('deliverable-S-101')).toContainText('Not issued yet.')
  await expectNoAxeViolations(freelancer)

  // P01 for comment, with a drawing; an empty note is named first.
  await main(freelancer).getByRole('link', { name: 'S-101', exact: true }).click()
  await settle(freelancer)
  await main(freelancer).getByLabel('Status', { exact: true }).selectOption({ label: 'For comment' })
  await clickIn(freelancer, 'Issue and send the transmittal')
  await expect(main(freelancer)).toContainText('Please fill this in.')
  await main(freelancer).getByLabel('Revision', { exact: true }).selectOption('P01')
  await main(freelancer)
    .getByLabel('Note to the client', { exact: true })
    .fill('First issue of the general arrangement.')
  await main(freelancer)
    .locator('input[type=file]')
    .setInputFiles({
      name: 'S-101-P01.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
    })
  await clickIn(freelancer, 'Issue and send the transmittal')
  await expect(main(freelancer)).toContainText('Issued.')
  await expect(main(freelancer).getByTestId('issue-P01')).toContainText('TR-0001')
  await expect(main(freelancer).getByTestId('issue-P01')).toContainText('S-101-P01.pdf')
  await expectNoAxeViolations(freelancer)

  // The client asks to revise and resubmit, with a comment; the installment waits on changes.
  await openDeliverable(client, projectId, 'S-101')
  await expect(main(client).getByTestId('issue-P01')).toContainText('Awaiting answer')
  await expectNoAxeViolations(client)
  await main(client).getByLabel('Answer', { exact: true }).selectOption({ label: 'Revise and resubmit' })
  await clickIn(client, 'Send the answer')
  await expect(main(client)).toContainText('Say what the comments are, or what should change.')
  await main(client).getByLabel('Answer', { exact: true }).selectOption({ label: 'Revise and resubmit' })
  await main(client).getByLabel('Comments', { exact: true }).fill('Show the bracing in the end bays.')
  await clickIn(client, 'Send the answer')
  await expect(main(client).getByTestId('issue-P01')).toContainText('Revise and resubmit')
  await expect(main(client)).toContainText('Changes requested')

  // P02 for approval; the client approves it.
  await openDeliverable(freelancer, projectId, 'S-101')
  await expect(main(freelancer).getByTestId('issue-P01')).toContainText('Show the bracing in the end bays.')
  await main(freelancer).getByLabel('Revision', { exact: true }).selectOption('P02')
  await main(freelancer).getByLabel('Status', { exact: true }).selectOption({ label: 'For approval' })
  await main(freelancer)
    .getByLabel('Note to the client', { exact: true })
    .fill('Bracing added in the end bays.')
  await clickIn(freelancer, 'Issue and send the transmittal')
  await expect(main(freelancer).getByTestId('issue-P02')).toContainText('TR-0002')

  await openDeliverable(client, projectId, 'S-101')
  await main(client).getByLabel('Answer', { exact: true }).selectOption({ label: 'Approved' })
  await clickIn(client, 'Send the answer')
  await expect(main(client)).toContainText('Your answer is recorded.')
  await expect(main(client).getByTestId('issue-P02')).toContainText('Approved')

  // The transmittal: what was sent, when and to whom; its PDF downloads.
  await main(client).getByTestId('issue-P02').getByRole('link', { name: 'TR-0002' }).click()
  await settle(client)
  await expect(main(client).locator('h1')).toHaveText('Transmittal TR-0002')
  await expect(main(client)).toContainText('Fred Freelancer')
  await expect(main(client)).toContainText('Bracing added in the end bays.')
  await expectNoAxeViolations(client)
  const pdf = await client.request.get(
    `${shell().base}/projects/transmittal/${new URL(client.url()).pathname.split('/').at(-1)}/pdf`,
  )
  expect(pdf.status()).toBe(200)
  expect(pdf.headers()['content-type']).toBe('application/pdf')
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')

  // Release through the contract page's usual confirmation step.
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await settle(client)
  const step = main(client).getByTestId('installment-1')
  await confirmIn(client, 'Approve', 'Release €1,000.00 to Fred Freelancer?', step)
  await expect(main(client).getByTestId('installment-1')).toContainText('Released')
})

test('several deliverables of an installment issued at once under one transmittal, page and PDF', async ({
  browser,
}) => {
  const { clientToken, freelancerToken, projectId, installmentIds } = await hiredProject(
    shell().base,
    shell().db,
    {
      title: `Loading bay canopy ${test.info().project.name}`,
      description: 'Design a steel canopy over a loading bay, with its drawings and calculations.',
      coverLetter: 'I design canopies for loading bays and can deliver the drawings within two weeks.',
      durationDays: 14,
      installments: [{ title: 'Drawings', amountMinor: 80000 }],
    },
  )
  for (const [number, title] of [
    ['S-201', 'Canopy plan'],
    ['S-202', 'Canopy sections'],
    ['S-203', 'Connection details'],
  ])
    await apiCall(shell().base, 'POST', `projects/${projectId}/deliverables`, freelancerToken, {
      number,
      title,
      discipline: 'Structures',
      installmentId: installmentIds[0],
    })
  await fundByApi(shell().base, clientToken, projectId, installmentIds)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  await freelancer.goto(`${shell().base}/projects/register/${projectId}`)
  await settle(freelancer)
  await main(freelancer).getByRole('link', { name: 'Issue several deliverables of Drawings' }).click()
  await settle(freelancer)
  const form = main(freelancer).locator('form#issue-many')
  // Nothing chosen: the form says so and keeps what was typed.
  await form.getByLabel('Note to the client', { exact: true }).fill('Plan and sections for comment.')
  await clickIn(freelancer, 'Issue and send one transmittal', form)
  await expect(main(freelancer).locator('form#issue-many')).toContainText(
    'Choose a revision for at least one deliverable.',
  )
  const again = main(freelancer).locator('form#issue-many')
  await expect(again.getByLabel('Note to the client', { exact: true })).toHaveValue(
    'Plan and sections for comment.',
  )
  await again.getByLabel('S-201 Canopy plan', { exact: true }).selectOption('P01')
  await again.getByLabel('S-202 Canopy sections', { exact: true }).selectOption('C01')
  await again.getByLabel('Status', { exact: true }).selectOption({ label: 'For comment' })
  await expectNoAxeViolations(freelancer)
  await clickIn(freelancer, 'Issue and send one transmittal', again)

  // One transmittal lists both, each at its revision; the third was not issued.
  await expect(main(freelancer)).toContainText('TR-0001 is sent to the client.')
  await expect(main(freelancer).locator('h1')).toHaveText('Transmittal TR-0001')
  const rows = main(freelancer).locator('tbody tr')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toContainText('S-201')
  await expect(rows.nth(0)).toContainText('P01')
  await expect(rows.nth(1)).toContainText('S-202')
  await expect(rows.nth(1)).toContainText('C01')
  await expectNoAxeViolations(freelancer)
  const id = new URL(freelancer.url()).pathname.split('/').at(-1)
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const pdf = await client.request.get(`${shell().base}/projects/transmittal/${id}/pdf`)
  expect(pdf.status()).toBe(200)
  const words = pdfText(await pdf.body()).replace(/\s*\n/g, ' ')
  expect(words).toContain('Transmittal TR-0001')
  expect(words).toContain('S-201 Canopy plan')
  expect(words).toContain('S-202 Canopy sections')
  expect(words).not.toContain('S-203')
  await client.goto(`${shell().base}/projects/register/${projectId}`)
  await settle(client)
  await expect(main(client).getByTestId('deliverable-S-201')).toContainText('TR-0001')
  await expect(main(client).getByTestId('deliverable-S-202')).toContainText('TR-0001')
  await expect(main(client).getByTestId('deliverable-S-203')).toContainText('Not issued yet.')
  await client.context().close()
  await freelancer.context().close()
})

test(
  "the register's add form keeps its errors while a live update comes, and the update follows once the reader moves on",
  { tag: '@needs-js' },
  async ({ browser }) => {
    const { clientToken, freelancerToken, projectId, installmentIds } = await hiredProject(
      shell().base,
      shell().db,
      {
        title: `Stair core check ${test.info().project.name}`,
        description: 'Check the concrete stair core of a four-storey office for a new lift opening.',
        coverLetter: 'I check concrete cores for new openings and can report within ten days.',
        durationDays: 10,
        installments: [{ title: 'Report', amountMinor: 60000 }],
      },
    )
    const added = await apiCall(shell().base, 'POST', `projects/${projectId}/deliverables`, freelancerToken, {
      number: 'S-301',
      title: 'Opening check',
      discipline: 'Structures',
      installmentId: installmentIds[0],
    })
    await fundByApi(shell().base, clientToken, projectId, installmentIds)
    const issued = await apiCall(
      shell().base,
      'POST',
      `projects/deliverables/${added.id}/issues`,
      freelancerToken,
      { revision: 'P01', status: 'for_comment', note: 'First check of the opening.' },
    )
    const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
    await freelancer.goto(`${shell().base}/projects/register/${projectId}`)
    await expect(freelancer.getByTestId('realtime-indicator')).toHaveAttribute('data-state', 'connected', {
      timeout: 15_000,
    })
    await clickIn(freelancer, 'Add to the register')
    const error = main(freelancer).locator('form#add-deliverable .field-error').first()
    await expect(error).toHaveText('Please fill this in.')

    // The client's answer notifies the freelancer live; the page's data waits while the reply is on screen.
    const reloads: string[] = []
    freelancer.on(
      'request',
      (r) => void (new URL(r.url()).pathname.endsWith('.data') && reloads.push(r.url())),
    )
    await apiCall(
      shell().base,
      'POST',
      `projects/deliverable-issues/${issued.issues[0].id}/answer`,
      clientToken,
      {
        outcome: 'approved',
      },
    )
    await freelancer.waitForTimeout(2_000)
    expect(reloads).toEqual([])
    await expect(error).toHaveText('Please fill this in.')
    // Once the reader moves on, the update that waited reloads the data.
    await main(freelancer).getByRole('link', { name: 'S-301', exact: true }).click()
    await expect.poll(() => reloads.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)
    await freelancer.context().close()
  },
)
