import { expect, test } from '@playwright/test'

// Decision 229: a notice flashed by a redirect reaches its page even when revalidations (what a
// hub push makes the open tabs do: data requests for the page each one shows) reach the server
// between the redirect and that page's load, with the browser's own cookie jar in between.
test('a flash notice survives revalidations that come between the redirect and its page', async ({
  page,
  baseURL,
}) => {
  // The contact form's redirect (JavaScript-off style: a plain form POST), not followed yet.
  const sent = await page.request.post('/contact-us', {
    form: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      subject: 'Invoices',
      message: 'Where do I find the invoices of May?',
    },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  })
  expect(sent.status()).toBe(302)
  expect(sent.headers()['location']).toBe('/contact-us')

  // Another tab on another page, and this tab's own page, revalidate before the page loads.
  for (const revalidation of ['/faq.data?_routes=routes%2Flayout', '/about-us.data', '/contact-us.data']) {
    expect((await page.request.get(revalidation)).status()).toBe(200)
  }

  await page.goto('/contact-us')
  await expect(page.locator('[data-notice="success"]')).toHaveText(
    'Thank you! Your message has reached our support team; we will answer by email.',
  )

  // Another page, later, does not show it.
  await page.goto('/faq')
  await expect(page.locator('[data-notice]')).toHaveCount(0)
})
