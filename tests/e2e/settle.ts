import type { Page } from '@playwright/test'
import { jsEnabled } from './project-js'

/**
 * Waits until what the last navigation or click started has been shown. With JavaScript the page
 * hydrates and may read its data again after a POST, so it waits until the network has been quiet
 * for 500 ms. With JavaScript off nothing runs after the document's load, and those 500 ms were
 * pure waiting at every step of a no-JS flow (decision 292).
 */
export async function settle(page: Page) {
  await page.waitForLoadState(jsEnabled() ? 'networkidle' : 'load')
}

/**
 * Waits until the shell's menus answer Escape and outside clicks. On a signed-in page that means
 * React has hydrated it (its effect turns them on), so a control typed into now is heard; on a
 * visitor's page the inline menu script has run (decision 314).
 */
export async function untilHydrated(page: Page) {
  await page.locator('html[data-menus="on"]').waitFor({ state: 'attached' })
}
