import { expect, test } from '@playwright/test'
import { expectNoAxeViolations } from './axe'

test('the home page shows the seeded catalogue, server-rendered', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Engineering and construction')
  const categories = page.locator('.category-card').getByRole('heading', { level: 3 })
  await expect(categories).toHaveCount(6)
  await expect(categories.first()).toHaveText('Planning and Strategy')
  await expect(
    page.locator('main').getByRole('link', { name: /Project and Construction Management/ }),
  ).toHaveAttribute('href', /\/categories\?search=/)
  await expectNoAxeViolations(page)
})

test('the home page speaks the language of the lang cookie', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'lang', value: 'de', url: baseURL! }])
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 2, name: 'Katalog entdecken' })).toBeVisible()
  await expect(page.locator('.category-card').getByRole('heading', { level: 3 }).first()).toHaveText(
    'Planung und Strategie',
  )
})

test('an unknown path goes to the not-found page', async ({ page }) => {
  await page.goto('/no/such/page')
  await expect(page).toHaveURL(/\/auth\/not-found$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found')
  await expectNoAxeViolations(page)
})
