import type { Page } from '@playwright/test'
import type { Db } from '#server/db/database.ts'
import { accounts, SHELL_PASSWORD } from './shell-server'
import { settle } from './settle'

// Setup shared by the money specs (payments, refunds): API calls as the seeded client and
// freelancer, a project hired through the API, and a click that waits for the page to settle.

/** One API call; a refusal fails the test with its answer. */
export async function apiCall(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
) {
  const r = await fetch(`${base}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r.json()
}

/** Clicks the first button of that name in `scope` (the page's main by default) and waits for the answer. */
export async function clickIn(page: Page, name: string | RegExp, scope = page.locator('main')) {
  await scope.getByRole('button', { name }).first().click()
  await settle(page)
}

/** The seeded client's new structural-engineering project, the seeded freelancer's proposal for it, accepted: the contract. */
export async function hiredProject(
  base: string,
  db: Db,
  p: {
    title: string
    description: string
    coverLetter: string
    durationDays: number
    installments: Array<{ title: string; amountMinor: number }>
  },
) {
  const token = async (email: string) =>
    (await apiCall(base, 'POST', 'identity/login', null, { email, password: SHELL_PASSWORD })).token as string
  const [clientToken, freelancerToken] = [
    await token(accounts.client.email),
    await token(accounts.freelancer.email),
  ]
  const { id: subcategoryId } = await db.db
    .selectFrom('subcategory')
    .select('id')
    .where('slug', '=', 'structural-engineering')
    .executeTakeFirstOrThrow()
  const budgetMinor = p.installments.reduce((s, i) => s + i.amountMinor, 0)
  const project = await apiCall(base, 'POST', 'projects', clientToken, {
    title: p.title,
    description: p.description,
    subcategoryId,
    budgetType: 'fixed',
    budgetMinor,
    currency: 'EUR',
    remote: true,
    installments: p.installments,
    publish: true,
  })
  const proposal = await apiCall(base, 'POST', `projects/${project.id}/proposal`, freelancerToken, {
    coverLetter: p.coverLetter,
    bidMinor: budgetMinor,
    durationDays: p.durationDays,
    installments: p.installments,
  })
  const contract = await apiCall(
    base,
    'POST',
    `projects/proposals/${proposal.id}/accept/${project.id}`,
    clientToken,
  )
  return {
    clientToken,
    freelancerToken,
    projectId: project.id as number,
    installmentIds: (contract.installments as Array<{ id: number }>).map((i) => i.id),
  }
}
