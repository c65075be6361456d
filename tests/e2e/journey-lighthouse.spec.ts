import { expect, test } from '@playwright/test'
import { lighthouseMobile } from '../../bench/page-weight'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { jsEnabled } from './project-js'
import { journeyWork } from './journey-work'

// The journey's proof by Lighthouse, on the work beside it (a project with a pending proposal and a
// contract under way, made by the API as journey.spec.ts makes it): the dashboard and the contract
// page score 100 for accessibility, signed in. Run by npm run proof's part lighthouse (decision 294).
test.describe.configure({ timeout: 300_000 })
const server = useShellServer()
const { moreWork } = journeyWork(server)

// A proof (decision 294): CI checks these screens with axe; npm run proof's part lighthouse runs Lighthouse on them.
test(
  'Lighthouse scores accessibility 100 on the dashboard and the contract page, signed in',
  { tag: '@proof' },
  async ({ browser }) => {
    // Lighthouse takes a while on a loaded machine and the pages are the same on both databases.
    test.skip(!jsEnabled(), 'measured once, with JavaScript')
    const work = await moreWork()
    const scores: string[] = []
    for (const [email, paths] of [
      [accounts.client.email, ['/dashboard', `/projects/client/details/${work.active}`]],
      [accounts.freelancer.email, ['/dashboard', `/projects/freelancer/contract/${work.active}`]],
    ] as const) {
      const page = await signInAs(browser, server().base, email)
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
      await page.context().close()
      for (const path of paths) {
        const r = await lighthouseMobile(`${server().base}${path}`, {
          categories: ['accessibility'],
          headers: { cookie },
        })
        expect(new URL(r.finalUrl).pathname, 'Lighthouse saw the page signed in').toBe(path)
        scores.push(
          `${path}: ${r.accessibility}${r.failedA11y.length ? ` (${r.failedA11y.join(', ')})` : ''}`,
        )
      }
    }
    console.log(`Lighthouse accessibility (mobile): ${scores.join('; ')}`)
    expect(scores.filter((s) => !/: 100$/.test(s))).toEqual([])
  },
)
