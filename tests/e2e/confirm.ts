import { expect, type Locator, type Page } from '@playwright/test'
import { settle } from './settle'

// The confirmation step of a move that moves money or cannot be undone (decision 310): the page's
// button opens it (a disclosure), the step says what will happen, and only its own button acts.

/** The disclosure whose button (its summary) reads `label`, inside `scope`. */
export const confirmation = (scope: Locator, label: string | RegExp) =>
  scope
    .locator('details.ui-confirm-disclosure')
    .filter({ has: scope.page().locator('summary', { hasText: label }) })
    .first()

/** Opens the step by its button, checks that it asks `question` (amount, who receives it), and confirms. */
export async function confirmIn(
  page: Page,
  label: string | RegExp,
  question: string | RegExp,
  scope = page.locator('main'),
) {
  const disclosure = confirmation(scope, label)
  await disclosure.locator('summary').first().click()
  await confirmStep(page, question, disclosure)
}

/** Confirms a step already on the page (a server-rendered one, or an opened disclosure) after checking its question. */
export async function confirmStep(page: Page, question: string | RegExp, scope = page.locator('main')) {
  const step = scope.getByTestId('confirm-step').first()
  await expect(step.locator('.ui-confirm-question')).toContainText(question)
  await step.getByRole('button').first().click()
  await settle(page)
}
