import { expect, type Page } from '@playwright/test'
import { fundByApi } from './checkout'
import { accounts, SHELL_PASSWORD } from './shell-server'
import type { useShellServer } from './shell-session'

// Pieces of the journey's specs (journey.spec.ts, journey-lighthouse.spec.ts): a page's main, an
// installment of the stepper and what it shows, and the work beside the journey made by the API.
type Shell = ReturnType<ReturnType<typeof useShellServer>>

export const main = (p: Page) => p.locator('main')

export const step = (page: Page, n: number) => main(page).getByTestId(`installment-${n}`)

/** An installment shows its state, and either the viewer's move or whom it waits on, never both. */
export async function expectStep(
  page: Page,
  n: number,
  chip: string,
  next: { move: string } | { waiting: string },
) {
  await expect(step(page, n).getByTestId('status-chip')).toHaveText(chip)
  if ('move' in next) {
    await expect(step(page, n)).toContainText('Your move')
    // A move that releases money is the button of its confirmation step (a summary).
    await expect(
      step(page, n)
        .getByRole('button', { name: next.move })
        .or(step(page, n).locator('summary', { hasText: next.move })),
    ).toBeVisible()
  } else {
    await expect(step(page, n)).toContainText(next.waiting)
    await expect(step(page, n).getByRole('button')).toHaveCount(0)
    await expect(step(page, n).locator('summary')).toHaveCount(0)
  }
}

/** The work beside the journey, through the API of the shell server `server` answers. */
export function journeyWork(server: () => Shell) {
  async function api(method: string, path: string, email: string | null, body?: unknown) {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (email)
      headers.authorization = `Bearer ${(await api('POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token}`
    const r = await fetch(`${server().base}/api/v1/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
    return r.json()
  }

  /** Beside the completed journey: a project with a pending proposal, and a contract under way. */
  async function moreWork() {
    const { id: subcategoryId } = await server()
      .db.db.selectFrom('subcategory')
      .select('id')
      .where('slug', '=', 'structural-engineering')
      .executeTakeFirstOrThrow()
    const post = (title: string) =>
      api('POST', 'projects', accounts.client.email, {
        title,
        description: 'Check a small steel canopy over a shop entrance, with calculations and a short report.',
        subcategoryId,
        budgetType: 'fixed',
        budgetMinor: 90000,
        currency: 'EUR',
        remote: true,
        publish: true,
      })
    const propose = (id: number) =>
      api('POST', `projects/${id}/proposal`, accounts.freelancer.email, {
        coverLetter: 'I check steel canopies every month and can send calculations in a week.',
        bidMinor: 85000,
        durationDays: 7,
        installments: [
          { title: 'Steel check', amountMinor: 50000 },
          { title: 'Canopy report', amountMinor: 35000 },
        ],
      })
    const pending = await post('Steel canopy check')
    const active = await post('Shop canopy calculations')
    await propose(pending.id)
    const contract = await api(
      'POST',
      `projects/proposals/${(await propose(active.id)).id}/accept/${active.id}`,
      accounts.client.email,
    )
    await fundByApi(
      server().base,
      (await api('POST', 'identity/login', null, { email: accounts.client.email, password: SHELL_PASSWORD }))
        .token,
      active.id,
      [contract.installments[0].id],
    )
    return { pending: pending.id as number, active: active.id as number }
  }
  return { moreWork }
}
