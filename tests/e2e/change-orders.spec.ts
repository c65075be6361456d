import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { apiCall, clickIn as click, hiredProject } from './contract-setup'
import { signInAs, useShellServer } from './shell-session'
import { fundByApi } from './checkout'
import { settle } from './settle'
import { confirmIn } from './confirm'

// Issue 40 item 2 end to end, with JavaScript on and off (decision 319): the freelancer proposes a
// change order adding an installment (a missing title is named first), the client accepts it from
// its confirmation step, the contract shows its original value, the approved change and its value
// now; the new installment is funded and released. The client's second change order, moving the
// deadline, is rejected by the freelancer with a reason that both then read. Then statements after
// a change order (issue 40 item 2): a funded installment reduced gives its held money back, the
// rest is released at the new price, and a pending one is removed (decision 326); each party's
// statement shows the refund and the release.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const main = (page: Page) => page.locator('main')

test('a change order adds an installment that is funded and released; another is rejected with a reason', async ({
  browser,
}) => {
  const { clientToken, projectId } = await hiredProject(shell().base, shell().db, {
    title: `Mezzanine floor check ${test.info().project.name}`,
    description: 'Check a steel mezzanine floor for a new storage load and propose the strengthening.',
    coverLetter: 'I design mezzanine floors every month and can deliver both stages in three weeks.',
    durationDays: 21,
    installments: [
      { title: 'Survey', amountMinor: 120000 },
      { title: 'Report', amountMinor: 60000 },
    ],
  })
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  const changes = `${shell().base}/projects/changes/${projectId}`

  // The freelancer proposes an installment; without its title the form says so under the field.
  await freelancer.goto(changes)
  await settle(freelancer)
  const form = main(freelancer).locator('form#propose')
  await form.getByLabel('What changes').fill('A site visit to measure the existing connections.')
  await form.getByLabel('Why it is needed').fill('The drawings of the connections are missing.')
  await form.getByLabel('Kind of change').selectOption('add')
  await form.getByLabel('Amount in EUR').fill('400')
  await click(freelancer, 'Propose the change', form)
  await expect(main(freelancer).locator('form#propose')).toContainText('Give the new installment a title.')
  const again = main(freelancer).locator('form#propose')
  await again.getByLabel('Title (new installment, or a new title)').fill('Site visit')
  await click(freelancer, 'Propose the change', again)
  await expect(main(freelancer).getByTestId('change-order-notice')).toContainText(
    'Change order 1 was sent to the other party.',
  )
  await expect(main(freelancer).getByTestId('change-order-1')).toContainText('Awaiting a decision')
  await expectNoAxeViolations(freelancer)

  // The client accepts from the step that names the contract's new value.
  await client.goto(changes)
  await settle(client)
  const first = main(client).getByTestId('change-order-1')
  await expect(first).toContainText('New installment “Site visit”: €400.00')
  await expectNoAxeViolations(client)
  await confirmIn(client, 'Accept', "Accept change order 1? The contract's value becomes €2,200.00.", first)
  await expect(main(client).getByTestId('change-order-notice')).toContainText('Change order 1 is accepted')
  const value = main(client).getByTestId('contract-value')
  await expect(value).toContainText('€1,800.00')
  await expect(value).toContainText('+€400.00')
  await expect(value.getByTestId('current-value')).toHaveText('€2,200.00')

  // The new installment is funded, delivered and released like any other.
  const list = await apiCall(shell().base, 'GET', `projects/${projectId}/change-orders`, clientToken)
  const added = (list.installments as Array<{ id: number; title: string }>).find(
    (i) => i.title === 'Site visit',
  )!
  await fundByApi(shell().base, clientToken, projectId, [added.id])
  await freelancer.goto(`${shell().base}/projects/freelancer/contract/${projectId}`)
  await settle(freelancer)
  const item = main(freelancer).getByTestId('installment-3')
  await item.getByLabel('What you deliver').fill('Measured connections attached.')
  await click(freelancer, 'Submit work', item)
  await expect(main(freelancer).getByTestId('installment-3')).toContainText('Submitted')
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await settle(client)
  await expect(main(client).getByTestId('current-value')).toHaveText('€2,200.00')
  await confirmIn(
    client,
    'Approve',
    'Release €400.00 to Fred Freelancer?',
    main(client).getByTestId('installment-3'),
  )
  await expect(main(client).getByTestId('installment-3')).toContainText('Released')
  await expect(main(client).getByTestId('timeline')).toContainText('accepted a change order')

  // The client proposes a later deadline; the freelancer rejects it, saying why.
  await client.goto(changes)
  await settle(client)
  const second = main(client).locator('form#propose')
  await second.getByLabel('What changes').fill('Deliver the report two weeks later.')
  await second.getByLabel('Why it is needed').fill('The warehouse is closed for inventory.')
  await second.getByLabel('Kind of change').selectOption('deadline')
  await second.getByLabel('Date (due date, or the new deadline)').fill('2099-03-31')
  await click(client, 'Propose the change', second)
  await expect(main(client).getByTestId('change-order-2')).toContainText('Awaiting a decision')

  await freelancer.goto(changes)
  await settle(freelancer)
  const rejected = main(freelancer).getByTestId('change-order-2')
  await click(freelancer, 'Reject the change order', rejected)
  await expect(main(freelancer).getByTestId('change-order-2')).toContainText('Say why you reject it.')
  await main(freelancer)
    .getByTestId('change-order-2')
    .getByLabel('Why do you reject it?')
    .fill('Another client has booked me for April.')
  await click(freelancer, 'Reject the change order', main(freelancer).getByTestId('change-order-2'))
  await expect(main(freelancer).getByTestId('change-order-notice')).toContainText(
    'Change order 2 is rejected.',
  )

  await client.goto(changes)
  await settle(client)
  const decided = main(client).getByTestId('change-order-2')
  await expect(decided).toContainText('Rejected')
  await expect(decided).toContainText('Another client has booked me for April.')
  await expect(main(client).getByTestId('current-value')).toHaveText('€2,200.00')
  await client.context().close()
  await freelancer.context().close()
})

test('a funded installment reduced and another removed: both statements show the refund and the release at the new price', async ({
  browser,
}) => {
  const title = `Roof truss check ${test.info().project.name}`
  const { clientToken, projectId, installmentIds } = await hiredProject(shell().base, shell().db, {
    title,
    description: 'Check the timber roof trusses of a barn for a new solar array and propose repairs.',
    coverLetter: 'I check timber roofs for solar arrays every month and report within two weeks.',
    durationDays: 14,
    installments: [
      { title: 'Survey', amountMinor: 100000 },
      { title: 'Repairs design', amountMinor: 50000 },
    ],
  })
  await fundByApi(shell().base, clientToken, projectId, [installmentIds[0]!])
  const client = await signInAs(browser, shell().base, accounts.client.email)
  const freelancer = await signInAs(browser, shell().base, accounts.freelancer.email)
  const changes = `${shell().base}/projects/changes/${projectId}`

  // The client proposes to lower the funded survey by €300 and to drop the repairs design.
  for (const [what, kind, amount] of [
    ['Survey of the trusses only, without the purlins.', 'reduce', '300'],
    ['No repairs design: the roofer does it.', 'remove', ''],
  ] as const) {
    await client.goto(changes)
    await settle(client)
    const form = main(client).locator('form#propose')
    await form.getByLabel('What changes').fill(what)
    await form.getByLabel('Why it is needed').fill('The scope is smaller than planned.')
    await form.getByLabel('Kind of change').selectOption(kind)
    await form
      .getByLabel('Installment (to change, reduce or remove)')
      .selectOption({ label: kind === 'reduce' ? '1. Survey' : '2. Repairs design' })
    if (amount) await form.getByLabel('Amount in EUR').fill(amount)
    await click(client, 'Propose the change', form)
    await expect(main(client).getByTestId('change-order-notice')).toContainText('was sent to the other party')
  }

  // The freelancer accepts each from its step, which names the money going back.
  await freelancer.goto(changes)
  await settle(freelancer)
  const reduction = main(freelancer).getByTestId('change-order-1')
  await expect(reduction).toContainText(
    '€300.00 held for a reduced or removed installment goes back to the client.',
  )
  await confirmIn(
    freelancer,
    'Accept',
    "Accept change order 1? The contract's value becomes €1,200.00.",
    reduction,
  )
  await expect(main(freelancer).getByTestId('change-order-1')).toContainText(
    '€300.00 of held money went back to the client.',
  )
  const removal = main(freelancer).getByTestId('change-order-2')
  await expect(removal).toContainText('Installment “Repairs design” removed (€500.00)')
  await confirmIn(
    freelancer,
    'Accept',
    "Accept change order 2? The contract's value becomes €700.00.",
    removal,
  )
  await expect(main(freelancer).getByTestId('current-value')).toHaveText('€700.00')
  await expectNoAxeViolations(freelancer)

  // The survey is delivered and released for its new price; the removed installment says so.
  await freelancer.goto(`${shell().base}/projects/freelancer/contract/${projectId}`)
  await settle(freelancer)
  await expect(main(freelancer).getByTestId('installment-2')).toContainText('Removed')
  const survey = main(freelancer).getByTestId('installment-1')
  await survey.getByLabel('What you deliver').fill('Truss survey attached.')
  await click(freelancer, 'Submit work', survey)
  await expect(main(freelancer).getByTestId('installment-1')).toContainText('Submitted')
  await client.goto(`${shell().base}/projects/client/details/${projectId}`)
  await settle(client)
  await confirmIn(
    client,
    'Approve',
    'Release €700.00 to Fred Freelancer?',
    main(client).getByTestId('installment-1'),
  )
  await expect(main(client).getByTestId('installment-1')).toContainText('Released')
  await expect(main(client).getByTestId('timeline')).toContainText('removed an installment')

  // The client's statement: €1,030 held (the price and its 3 % fee), €309 back, €721 released, nothing left.
  await client.goto(`${shell().base}/statements`)
  await settle(client)
  const rows = main(client).getByTestId('movement').filter({ hasText: title })
  await expect(rows).toHaveCount(3)
  await expect(rows.filter({ hasText: '+€1,030.00' })).toHaveCount(1)
  await expect(rows.filter({ hasText: '-€309.00' })).toHaveCount(1)
  await expect(rows.filter({ hasText: '-€721.00' })).toHaveCount(1)
  await expect(rows.nth(2).locator('td').last()).toHaveText('€0.00')
  await expectNoAxeViolations(client)
  // The freelancer's: €700 released less the 10 % platform fee.
  await freelancer.goto(`${shell().base}/statements`)
  await settle(freelancer)
  await expect(main(freelancer).getByTestId('movement').filter({ hasText: title })).toContainText('+€630.00')
  await client.context().close()
  await freelancer.context().close()
})
