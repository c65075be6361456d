import { type Page } from '@playwright/test'
import { testCards } from '../../server/modules/payments/gateways/test-cards.ts'

// Paying in the sandbox checkout as a client's browser does (decision 171), with or without
// JavaScript, and funding through the API as a test's setup does (PayProjectInstallments, then
// the sandbox's card form).
export { testCards }

/** From the pay page: pay, fill the sandbox's card form, submit; ends on the page the checkout lands on. */
export async function payInCheckout(page: Page, cardNumber: string = testCards.succeeds, { fromPayPage = true } = {}) {
  const main = page.locator('main')
  if (fromPayPage) {
    await main.getByRole('button', { name: /^Pay / }).click()
    await page.waitForURL(/\/checkout\//)
    await page.waitForLoadState('networkidle')
  }
  await main.getByLabel('Card number').fill(cardNumber)
  await main.getByLabel('Expiry date (MM/YY)').fill('12/40')
  await main.getByLabel('Security code (CVC)').fill('123')
  await main.getByLabel('Name on the card').fill('Clara Client')
  await main.getByRole('button', { name: /^Pay / }).click()
  await page.waitForLoadState('networkidle')
}

/** One API call as a test's setup makes it (JSON in and out); anything but 2xx throws. */
export async function callApi(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const r = await fetch(`${base}/api/v1/${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r.json()
}

/** Funds installments through the API: a payment, then the sandbox's card form answered with a card that succeeds. */
export async function fundByApi(base: string, token: string, projectId: number, installmentIds: number[]) {
  const payment = await callApi(base, 'POST', 'Payment/PayProjectInstallments', token, { projectId, installmentIds })
  await callApi(base, 'POST', `Payment/sandbox/${payment.token}/pay`, null, { cardNumber: testCards.succeeds, expiry: '12/40', cvc: '123', name: 'Clara Client' })
}
