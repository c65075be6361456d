import { expect } from 'vitest'
import { testCards } from '#server/modules/payments/gateways/test-cards.ts'
import { openDatabase } from '#server/db/database.ts'
import { tinyPdf } from './module-api.ts'
import { PAGE_ACCOUNT, PAGE_ADMIN, PAGE_FREELANCER, signedInPageServer } from './page-server.ts'

// The world of confirm-steps.test.ts (decision 310): its page server, its people, and the projects,
// refunds, payout methods, timesheet weeks, hiring and verification requests its bare POSTs need.
let pages: ReturnType<typeof signedInPageServer>
const base = () => pages.server.base

/** The page server of the test file that calls it (its hooks join that file's), as a browser without JavaScript meets it. */
export function useConfirmPages() {
  pages = signedInPageServer({ freelancer: true, admin: true })
  return pages
}

export async function api(method: string, path: string, token: string | null, body?: unknown) {
  const r = await fetch(`${base()}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r.json()
}

export const login = async (account: { email: string; password: string }) =>
  (await api('POST', 'identity/login', null, account)).token as string

/** A page form as a browser without JavaScript posts it, with the session's cookie. */
export const post = (path: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${base()}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base(), cookie },
    body: new URLSearchParams(fields),
  })

export const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

/** The people of the tests: API tokens and page sessions. */
export const people = async () => ({
  client: await login(PAGE_ACCOUNT),
  freelancer: await login(PAGE_FREELANCER),
  freelancerSession: await pages.server.signIn(PAGE_FREELANCER),
  adminSession: await pages.server.signIn(PAGE_ADMIN),
})
export type People = Awaited<ReturnType<typeof people>>
let known: People | undefined
export const who = async () => (known ??= await people())

const installments = [
  { title: 'Calculations', amountMinor: 120000 },
  { title: 'Drawings', amountMinor: 60000 },
]

/** A published project of the page client, without proposals. */
export async function openProject(client: string) {
  const { data } = await api('GET', 'settings/dropdowns/subcategories', null)
  const project = await api('POST', 'projects', client, {
    title: 'Roof truss check',
    description: 'Check the timber roof trusses of a barn and write a short report on them.',
    subcategoryId: data[0].id,
    budgetType: 'fixed',
    budgetMinor: 180000,
    currency: 'EUR',
    remote: true,
    installments,
    publish: true,
  })
  return project.id as number
}

export const propose = (freelancer: string, projectId: number) =>
  api('POST', `projects/${projectId}/proposal`, freelancer, {
    coverLetter: 'I check timber trusses every week and can report within ten days.',
    bidMinor: 180000,
    durationDays: 10,
    installments,
  })

/** A project of the page client hired from the page freelancer; `funded` pays its first installment, `submitted` also delivers it. */
export async function hired(
  { client, freelancer }: People,
  stage: 'hired' | 'funded' | 'submitted' = 'hired',
) {
  const projectId = await openProject(client)
  const proposal = await propose(freelancer, projectId)
  const contract = await api('POST', `projects/proposals/${proposal.id}/accept/${projectId}`, client)
  const [first, second] = (contract.installments as Array<{ id: number }>).map((i) => i.id) as [
    number,
    number,
  ]
  if (stage !== 'hired') {
    const payment = await api('POST', 'Payment/PayProjectInstallments', client, {
      projectId,
      installmentIds: [first],
    })
    await api('POST', `Payment/sandbox/${payment.token}/pay`, null, {
      cardNumber: testCards.succeeds,
      expiry: '12/40',
      cvc: '123',
      name: 'Paula Pages',
    })
  }
  if (stage === 'submitted')
    await api('POST', `projects/installments/${first}/submit`, freelancer, { note: 'Calculations attached.' })
  return { projectId, first, second }
}

export const clientView = (client: string, projectId: number) =>
  api('GET', `projects/${projectId}/details-for-client`, client)

export const statusOf = async (client: string, projectId: number, id: number) =>
  ((await clientView(client, projectId)).contract.installments as Array<{ id: number; status: string }>).find(
    (i) => i.id === id,
  )!.status

export const refunds = (token: string, projectId: number) =>
  api('GET', `projects/${projectId}/refund-requests`, token)

/** A refund request of the client for the first installment of a funded project (declined by the freelancer with `declined`). */
export async function refundAsked(p: People, declined = false) {
  const { projectId, first } = await hired(p, 'funded')
  const asked = await api('POST', `RefundRequest/${projectId}/${first}/20000`, p.client, {
    reason: 'The calculations were never started.',
  })
  if (declined)
    await api('POST', `refund-requests/${asked.id}/decline`, p.freelancer, {
      reason: 'The calculations are half done.',
    })
  return { projectId, requestId: String(asked.id) }
}

/** The freelancer's payout methods: a bank account (the default) and a PayPal address, added once. */
let methodIds: { bank: string; paypal: string } | undefined
export async function payoutMethods({ freelancer }: People) {
  const list = async () => {
    const me = await api('GET', 'identity/profile', freelancer)
    return (await api('GET', `freelancers/${me.id}/GetAllPaymentMethodsForFreelancer`, freelancer))
      .data as Array<{ id: number; kind: string }>
  }
  if (!methodIds) {
    const added = [
      { kind: 'bank', iban: 'DE89 3704 0044 0532 0130 00' },
      { kind: 'paypal', email: 'felix.pages@example.test' },
    ]
    for (const method of added)
      await api('POST', 'freelancers/AddFreelancerPaymentMethod', freelancer, {
        holderName: 'Felix Pages',
        ...method,
      })
    const all = await list()
    methodIds = {
      bank: String(all.find((m) => m.kind === 'bank')!.id),
      paypal: String(all.find((m) => m.kind === 'paypal')!.id),
    }
  }
  return { ...methodIds, list }
}

/** A bare POST refused with the words of decision 310 (400, or a redirect carrying them as a notice). */
export async function refusedWithWords(response: Response) {
  expect(response.status).toBe(400)
  expect(decode(await response.text())).toContain('Please confirm first: nothing has changed.')
}

/** A typed form's bare POST answered with its confirmation step. */
export async function answeredWithStep(response: Response) {
  expect(response.status).toBe(200)
  expect(await response.text()).toContain('data-testid="confirm-step"')
}

/** The contract of a hired project made hourly (as the hourly proposals make it), with last week's time submitted. */
export async function submittedWeek(p: People, projectId: number) {
  const db = await openDatabase({ kind: 'sqlite', file: pages.server.databaseFile })
  try {
    const started = new Date(Date.now() - 28 * 86_400_000).toISOString()
    const c = await db.db
      .selectFrom('contract')
      .select('id')
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow()
    await db.db.deleteFrom('installment').where('contract_id', '=', c.id).execute()
    await db.db
      .updateTable('contract')
      .set({
        billing: 'hourly',
        hourly_rate_minor: 8000,
        weekly_limit_hours: 40,
        amount_minor: 0,
        created_at: started,
      })
      .where('id', '=', c.id)
      .execute()
  } finally {
    await db.close()
  }
  const today = new Date()
  const week = new Date(today.getTime() - (((today.getUTCDay() + 6) % 7) + 7) * 86_400_000)
    .toISOString()
    .slice(0, 10)
  const logged = await api('POST', `projects/${projectId}/timesheets/entries`, p.freelancer, {
    date: week,
    hours: 3,
    description: 'Checked the trusses on site.',
  })
  await api('POST', `projects/${projectId}/timesheets/weeks/${logged.week.id}/submit`, p.freelancer)
  return { weekId: String(logged.week.id), week }
}

/** A live request for help hiring of the page client, asked once (a client may have three live ones). */
let hiringId: number | undefined
export async function hiringRequest({ client }: People) {
  hiringId ??= (
    await api('POST', 'hiring/requests', client, {
      need: 'An engineer to check a timber roof before a loft conversion.',
      budgetMinMinor: 50000,
      currency: 'EUR',
      deadline: new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10),
    })
  ).id as number
  return hiringId
}

/** The page freelancer's pending verification request, asked once (one may be open at a time). */
let verificationId: number | undefined
export async function verificationRequest({ freelancer }: People) {
  if (!verificationId) {
    const form = new FormData()
    form.set('kind', 'identity')
    form.set('file', new Blob([new Uint8Array(tinyPdf())], { type: 'application/pdf' }), 'passport.pdf')
    const asked = await fetch(`${base()}/api/v1/verification`, {
      method: 'POST',
      headers: { authorization: `Bearer ${freelancer}` },
      body: form,
    })
    if (!asked.ok) throw new Error(`POST verification: ${asked.status} ${await asked.text()}`)
    const db = await openDatabase({ kind: 'sqlite', file: pages.server.databaseFile })
    try {
      verificationId = (
        await db.db
          .selectFrom('identity_verification')
          .select('id')
          .where('state', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).id
    } finally {
      await db.close()
    }
  }
  return verificationId
}
