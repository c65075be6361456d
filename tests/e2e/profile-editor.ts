import { expect, type Page } from '@playwright/test'

/**
 * Opens one section of /profile with its own Edit (or Add) link, a plain link to `?edit=<section>`
 * that works without JavaScript, and waits until that section's form is the one shown.
 */
export async function openSection(page: Page, id: string) {
  await page.locator(`#${id} a[href="/profile?edit=${id}#${id}"]`).click()
  await expect(page).toHaveURL(new RegExp(`[?&]edit=${id}(#|&|$)`))
  await expect(page.locator(`#${id}`)).toHaveAttribute('data-editing', 'true')
}

/** The forms the editor shows: the open section's, and the one-button Remove forms of the lists. */
export const sectionForms = (page: Page) => page.locator('main form:not(.inline-form)')
