import { type Page } from '@playwright/test'
import { testCards } from '#server/modules/payments/gateways/test-cards.ts'
import { apiCall } from './contract-setup'
import { settle } from './settle'

// Paying in the sandbox checkout as a client's browser does (decision 171), with or without
// JavaScript, and funding through the API as a test's setup does (PayProjectInstallments, then
// the sandbox's card form).
export { testCards }

/** From the pay page: pay, fill the sandbox's card form, submit; ends on the page the checkout lands on. */
export async function payInCheckout(
  page: Page,
  cardNumber: string = testCards.succeeds,
  { fromPayPage = true } = {},
) {
  const main = page.locator('main')
  if (fromPayPage) {
    await main.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/checkout\//)
    await settle(page)
  }
  await main.getByLabel('Card number').fill(cardNumber)
  await main.getByLabel('Expiry date (MM/YY)').fill('12/40')
  await main.getByLabel('Security code (CVC)').fill('123')
  await main.getByLabel('Name on the card').fill('Clara Client')
  await main.getByRole('button', { name: /^Pay / }).click()
  await settle(page)
}

/** Funds installments through the API: a payment, then the sandbox's card form answered with a card that succeeds. */
export async function fundByApi(base: string, token: string, projectId: number, installmentIds: number[]) {
  const payment = await apiCall(base, 'POST', 'Payment/PayProjectInstallments', token, {
    projectId,
    installmentIds,
  })
  await apiCall(base, 'POST', `Payment/sandbox/${payment.token}/pay`, null, {
    cardNumber: testCards.succeeds,
    expiry: '12/40',
    cvc: '123',
    name: 'Clara Client',
  })
}
