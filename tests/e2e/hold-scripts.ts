import type { Page } from '@playwright/test'

/**
 * Holds every script the page asks for until `release()`: the page is there, as on a slow
 * connection, but not hydrated, so a test can act on it first (decision 276).
 */
export async function holdScripts(page: Page) {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\.js(\?|$)/, async (route) => {
    await held
    await route.continue()
  })
  return release
}
