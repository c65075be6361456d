import type { Locator, Page } from '@playwright/test'

/**
 * Clicks a form's submit button and waits for the POST and the page that follows. With JavaScript
 * the page's data is read again after the POST: waiting for that read keeps the next step off a
 * form that is about to be drawn anew (a list section's form starts empty after a save).
 */
export async function submitAndWait(page: Page, button: Locator, javaScript: boolean) {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST')
  const reloaded = javaScript
    ? page.waitForResponse(
        (r) => r.request().method() === 'GET' && new URL(r.url()).pathname.endsWith('.data'),
      )
    : null
  await button.click()
  await posted
  await reloaded
}
