import path from 'node:path'
import { test, type Page } from '@playwright/test'
import { accounts } from './shell-server'
import { signInAs, useShellServer } from './shell-session'
import { walkthrough } from './walkthrough-screens'

// Issue 39's "before" pictures: the screens of tests/e2e/walkthrough.spec.ts as they read on the
// last commit before issue 39's work (f14a746). It is not part of the suite: it runs in a worktree
// of that commit beside a copy of tests/e2e/walkthrough-screens.ts (docs/walkthrough/issue-39.md
// says how). Screens that did not exist then (the dispute's ticket, a section's own form, the
// confirmation steps) are taken where the issue found the person instead.
test.describe.configure({ mode: 'serial', timeout: 240_000 })
const shell = useShellServer()
const { shot, marketplace, delivered, everyday } = walkthrough(
  shell,
  path.join(import.meta.dirname, '../../docs/walkthrough/issue-39/before'),
)
const main = (page: Page) => page.locator('main')

test('issue 39, before: the money screens', async ({ browser }) => {
  const m = await marketplace()
  const fred = await signInAs(browser, shell().base, accounts.freelancer.email)
  const clara = await signInAs(browser, shell().base, accounts.client.email)
  const sam = await signInAs(browser, shell().base, accounts.admin.email)
  for (const [page, name, p] of [
    [fred, '01-statement-freelancer', '/statements'],
    [fred, '02-contract-freelancer', `/projects/freelancer/contract/${m.projectId}`],
    [fred, '03-notifications-freelancer', '/notifications'],
    // A disputed refund opened no ticket: the freelancer's tickets.
    [fred, '04-dispute-ticket-freelancer', '/ticketSupport'],
    [clara, '05-statement-client', '/statements'],
    [clara, '06-contract-client', `/projects/client/details/${m.projectId}`],
    [sam, '07-admin-dispute-queue', '/admin/complaints'],
    [sam, '09-admin-payments', '/admin/payments'],
  ] as const) {
    await page.goto(`${shell().base}${p}`)
    await shot(page, name)
  }
  await sam.goto(`${shell().base}/admin`)
  await shot(sam, '10-admin-dashboard', false)

  // Approve released at once: the page with its button; a withdrawal paid out on its first click.
  const second = await delivered()
  await clara.goto(`${shell().base}/projects/client/details/${second.projectId}`)
  await shot(clara, '20-approve-step')
  await fred.goto(`${shell().base}/payouts`)
  await main(fred).getByLabel('Amount').first().fill('100')
  await main(fred).getByRole('button', { name: 'Withdraw' }).first().click()
  await fred.waitForLoadState('networkidle')
  await shot(fred, '21-withdraw-step')
})

test('issue 39, before: everyday screens, and a phone in Russian', async ({ browser }) => {
  await everyday(browser)
})
