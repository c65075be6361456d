import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations } from './axe'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { settle } from './settle'
import { shellSteps } from './shell-steps'
import { fillOffer } from './offer-form'

// Direct offers end to end (decision 342), JavaScript on (PostgreSQL) and off (SQLite): a client
// makes Fred an offer from his profile (a fixed price in two installments); Fred finds it in his
// offers, reads the terms and accepts; he lands on the contract, which has those installments, and
// the client's offers show it accepted.
test.describe.configure({ mode: 'serial', timeout: 180_000 })
const shell = useShellServer()
const { main, go, click, idOf } = shellSteps(shell)

/** How far the page reaches past a 320 px screen's right edge (0 or less: no sideways scroll). */
async function overflowAt320(page: Page) {
  await page.setViewportSize({ width: 320, height: 740 })
  const extra = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  await page.setViewportSize({ width: 1280, height: 800 })
  return extra
}

test('a client makes a freelancer an offer; the freelancer accepts and the contract has its installments', async ({
  browser,
}) => {
  const title = `Retaining wall ${Date.now().toString(36)} design`
  const sub = await shell()
    .db.db.selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const fredId = await idOf(accounts.freelancer.email)

  // The client opens Fred's profile and makes him an offer.
  const client = await signInAs(browser, shell().base, accounts.client.email)
  await go(client, `/profiles/freelancers/${fredId}`)
  await main(client).getByRole('link', { name: 'Make an offer' }).first().click()
  await settle(client)
  await expect(client).toHaveURL(new RegExp(`/offers/new\\?freelancerId=${fredId}`))
  expect(await overflowAt320(client)).toBeLessThanOrEqual(0)
  const form = client.locator('#offer')
  await fillOffer(form, {
    title,
    description:
      'Design a two metre retaining wall along the garden boundary, with drainage and calculations.',
    subcategoryId: sub.id,
    price: '1200',
    days: '20',
    installments: [
      { title: 'Calculations', amount: '700', due: '2030-01-10' },
      { title: 'Drawings', amount: '500' },
    ],
    message: 'Your wall in Bath was excellent.',
  })
  await expectNoAxeViolations(client)
  await click(client, 'Send the offer', form)
  await expect(main(client).getByTestId('offer-notice')).toHaveText('Your offer is sent to Fred Freelancer.')
  await expect(main(client).getByTestId('offer-state')).toHaveText('Waiting for an answer')
  await expectNoAxeViolations(client)

  // Fred finds it in his offers, reads the terms and accepts.
  const fred = await signInAs(browser, shell().base, accounts.freelancer.email)
  await go(fred, '/offers')
  const card = main(fred).getByTestId('offer-card').filter({ hasText: title })
  await expect(card.getByTestId('offer-state')).toHaveText('Waiting for an answer')
  await expect(card).toContainText('€1,200.00 fixed price')
  await expectNoAxeViolations(fred)
  await card.getByRole('link', { name: title }).click()
  await settle(fred)
  await expect(main(fred).getByTestId('offer-installment')).toHaveCount(2)
  await expect(main(fred).getByTestId('offer')).toContainText('Your wall in Bath was excellent.')
  await expectNoAxeViolations(fred)
  expect(await overflowAt320(fred)).toBeLessThanOrEqual(0)
  await click(fred, 'Accept the offer')
  await expect(fred).toHaveURL(/\/projects\/freelancer\/contract\/\d+/)
  const projectId = Number(/contract\/(\d+)/.exec(fred.url())![1])

  // The contract exists with the offer's installments; the client's offers show it accepted.
  const contract = await shell()
    .db.db.selectFrom('contract')
    .select(['id', 'client_id', 'freelancer_id', 'amount_minor', 'status'])
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow()
  expect(contract).toMatchObject({ freelancer_id: fredId, amount_minor: 120000, status: 'active' })
  const installments = await shell()
    .db.db.selectFrom('installment')
    .select(['title', 'amount_minor', 'due_date'])
    .where('contract_id', '=', contract.id)
    .orderBy('position')
    .execute()
  expect(installments).toEqual([
    { title: 'Calculations', amount_minor: 70000, due_date: '2030-01-10' },
    { title: 'Drawings', amount_minor: 50000, due_date: null },
  ])
  await go(client, '/offers')
  const sent = main(client).getByTestId('offer-card').filter({ hasText: title })
  await expect(sent.getByTestId('offer-state')).toHaveText('Accepted')
  await sent.getByRole('link', { name: title }).click()
  await settle(client)
  await main(client).getByTestId('offer-contract').click()
  await settle(client)
  await expect(client).toHaveURL(new RegExp(`/projects/client/details/${projectId}`))
})
