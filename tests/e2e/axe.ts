import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import { jsEnabled } from './project-js'

/**
 * Fails with the list of violations when axe-core finds any on the page as it is now. It runs where
 * JavaScript is on (axe runs as a script in the page): each spec runs with JavaScript in one project,
 * SQLite's or PostgreSQL's (decision 320), so each page is checked once.
 */
export async function expectNoAxeViolations(page: Page) {
  if (!jsEnabled()) return
  expect(await axeViolations(page)).toEqual([])
}

/**
 * axe-core's violations on the page as it is now, one line each (rule, help, where).
 * Run as one `axe.run` in the page (AxeBuilder's legacy mode), not as a partial run in each frame
 * finished in a blank page the builder opens: the same rules and the same results (compared on
 * pages with a same-origin frame and planted violations), in half the time on two cores
 * (decision 296). Legacy mode cannot check a frame from another origin, so a page with one is
 * checked the builder's default way.
 */
export async function axeViolations(page: Page) {
  const origin = new URL(page.url()).origin
  const foreignFrame = page
    .frames()
    .some((frame) => /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== origin)
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .setLegacyMode(!foreignFrame)
    .analyze()
  return results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  )
}
