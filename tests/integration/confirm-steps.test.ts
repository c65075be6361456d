import { describe, expect, test } from 'vitest'
import { testCards } from '#server/modules/payments/gateways/test-cards.ts'
import { openDatabase } from '#server/db/database.ts'
import {
  confirmedForms,
  type ConfirmedIntent,
  type ConfirmedPage,
} from '../../app/lib/confirmed-forms.server.ts'
import { PAGE_ACCOUNT, PAGE_ADMIN, PAGE_FREELANCER, signedInPageServer } from './page-server.ts'

// Decision 310: a form that moves money or cannot be undone acts only when its confirmation step's
// own form sent it. Every such form is listed once, in app/lib/confirmed-forms.server.ts, which the
// actions ask; here each one of that list is posted bare (what a page without the step, a stale tab
// or a forged request sends) and must be refused, or answered with its step, and change nothing.
// Over the built server, as a browser without JavaScript posts.
const pages = signedInPageServer({ freelancer: true, admin: true })
const base = () => pages.server.base

async function api(method: string, path: string, token: string | null, body?: unknown) {
  const r = await fetch(`${base()}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
  return r.json()
}

const login = async (account: { email: string; password: string }) =>
  (await api('POST', 'identity/login', null, account)).token as string

/** A page form as a browser without JavaScript posts it, with the session's cookie. */
const post = (path: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${base()}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: base(), cookie },
    body: new URLSearchParams(fields),
  })

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')

/** The people of the tests: API tokens and page sessions. */
const people = async () => ({
  client: await login(PAGE_ACCOUNT),
  freelancer: await login(PAGE_FREELANCER),
  freelancerSession: await pages.server.signIn(PAGE_FREELANCER),
  adminSession: await pages.server.signIn(PAGE_ADMIN),
})
type People = Awaited<ReturnType<typeof people>>
let known: People | undefined
const who = async () => (known ??= await people())

const installments = [
  { title: 'Calculations', amountMinor: 120000 },
  { title: 'Drawings', amountMinor: 60000 },
]

/** A published project of the page client, without proposals. */
async function openProject(client: string) {
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

const propose = (freelancer: string, projectId: number) =>
  api('POST', `projects/${projectId}/proposal`, freelancer, {
    coverLetter: 'I check timber trusses every week and can report within ten days.',
    bidMinor: 180000,
    durationDays: 10,
    installments,
  })

/** A project of the page client hired from the page freelancer; `funded` pays its first installment, `submitted` also delivers it. */
async function hired({ client, freelancer }: People, stage: 'hired' | 'funded' | 'submitted' = 'hired') {
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

const clientView = (client: string, projectId: number) =>
  api('GET', `projects/${projectId}/details-for-client`, client)

const statusOf = async (client: string, projectId: number, id: number) =>
  ((await clientView(client, projectId)).contract.installments as Array<{ id: number; status: string }>).find(
    (i) => i.id === id,
  )!.status

const refunds = (token: string, projectId: number) =>
  api('GET', `projects/${projectId}/refund-requests`, token)

/** A refund request of the client for the first installment of a funded project (declined by the freelancer with `declined`). */
async function refundAsked(p: People, declined = false) {
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
async function payoutMethods({ freelancer }: People) {
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
async function refusedWithWords(response: Response) {
  expect(response.status).toBe(400)
  expect(decode(await response.text())).toContain('Please confirm first: nothing has changed.')
}

/** A typed form's bare POST answered with its confirmation step. */
async function answeredWithStep(response: Response) {
  expect(response.status).toBe(200)
  expect(await response.text()).toContain('data-testid="confirm-step"')
}

/** A bare POST to the payout methods' page: the step, and the methods as they were. */
async function methodForm(p: People, fields: Record<string, string>) {
  const { list } = await payoutMethods(p)
  const before = await list()
  await answeredWithStep(await post('/peyment-details', p.freelancerSession, fields))
  expect(await list()).toEqual(before)
}

/** An admin's bare POST on the freelancer's account: refused, and the account still signs in. */
async function adminUserForm(p: People, intent: string) {
  const me = await api('GET', 'identity/profile', p.freelancer)
  const answer = await post(`/admin/users/${me.id}`, p.adminSession, {
    intent,
    reason: 'Repeated no-shows on site visits.',
  })
  await refusedWithWords(answer)
  expect(await login(PAGE_FREELANCER)).toEqual(expect.any(String))
  expect((await api('GET', 'identity/profile', p.freelancer)).id).toBe(me.id)
}

/** The contract of a hired project made hourly (as the hourly proposals make it), with last week's time submitted. */
async function submittedWeek(p: People, projectId: number) {
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

type Bare = (p: People) => Promise<void>

/** For every guarded form, its bare POST and what must be unchanged after it (the type asks for each one of the list). */
const bare: { [P in ConfirmedPage]: { [I in ConfirmedIntent<P>]: Bare } } = {
  project: {
    'installment-approve': async (p) => {
      const { projectId, first } = await hired(p, 'submitted')
      const path = `/projects/client/details/${projectId}`
      await refusedWithWords(
        await post(path, pages.session, { intent: 'installment-approve', id: String(first) }),
      )
      expect(await statusOf(p.client, projectId, first)).toBe('submitted')
    },
    cancelled: async (p) => {
      const { projectId } = await hired(p)
      await refusedWithWords(
        await post(`/projects/client/details/${projectId}`, pages.session, { intent: 'cancelled' }),
      )
      expect((await clientView(p.client, projectId)).project.status).toBe('in_progress')
    },
    delete: async (p) => {
      const projectId = await openProject(p.client)
      await refusedWithWords(
        await post(`/projects/client/details/${projectId}`, pages.session, { intent: 'delete' }),
      )
      expect((await clientView(p.client, projectId)).project.status).toBe('open')
    },
    withdraw: async (p) => {
      const projectId = await openProject(p.client)
      const proposal = await propose(p.freelancer, projectId)
      const mine = async () =>
        (
          (await api('GET', 'projects/freelancer/proposals', p.freelancer)).data as Array<{ id: number }>
        ).find((x) => x.id === proposal.id)
      const before = await mine()
      const path = `/projects/details/${projectId}`
      await refusedWithWords(
        await post(path, p.freelancerSession, { intent: 'withdraw', id: String(proposal.id) }),
      )
      expect(await mine()).toEqual(before)
    },
  },
  refund: {
    'refund-request': async (p) => {
      const { projectId, first } = await hired(p, 'funded')
      const before = await refunds(p.client, projectId)
      const answer = await post(`/projects/client/details/${projectId}`, pages.session, {
        intent: 'refund-request',
        installmentId: String(first),
        amount: '100',
        reason: 'The calculations were never started.',
      })
      await answeredWithStep(answer)
      expect(await refunds(p.client, projectId)).toEqual(before)
    },
    'refund-accept': async (p) => {
      const { projectId, requestId } = await refundAsked(p)
      const before = await refunds(p.client, projectId)
      const path = `/projects/freelancer/contract/${projectId}`
      await refusedWithWords(await post(path, p.freelancerSession, { intent: 'refund-accept', requestId }))
      expect(await refunds(p.client, projectId)).toEqual(before)
    },
    'refund-dispute': async (p) => {
      const { projectId, requestId } = await refundAsked(p, true)
      const before = await refunds(p.client, projectId)
      const path = `/projects/client/details/${projectId}`
      await refusedWithWords(await post(path, pages.session, { intent: 'refund-dispute', requestId }))
      expect(await refunds(p.client, projectId)).toEqual(before)
    },
  },
  timesheet: {
    approve: async (p) => {
      const { projectId } = await hired(p)
      const { weekId, week } = await submittedWeek(p, projectId)
      const path = `/projects/timesheets/${projectId}`
      await refusedWithWords(await post(path, pages.session, { intent: 'approve', weekId, week }))
      const sheet = await api('GET', `projects/${projectId}/timesheets?week=${week}`, p.client)
      expect(sheet.week.status).toBe('submitted')
      expect(sheet.week.installmentId).toBeNull()
    },
  },
  pay: {
    pay: async (p) => {
      const { projectId, second } = await hired(p)
      const pay = await post(`/projects/client/pay/${projectId}`, pages.session, {
        installment: String(second),
        totalMinor: '61800',
      })
      await refusedWithWords(pay)
      expect(pay.headers.get('location')).toBeNull()
      expect(await statusOf(p.client, projectId, second)).toBe('pending')
    },
  },
  payout: {
    withdraw: async (p) => {
      const { first } = await hired(p, 'submitted')
      await api('POST', `projects/installments/${first}/approve`, p.client, {})
      const { bank } = await payoutMethods(p)
      const form = { amount: '500', currency: 'EUR', paymentMethodId: bank }
      await answeredWithStep(await post('/payouts', p.freelancerSession, form))
      expect((await api('GET', 'Payment/payouts', p.freelancer)).data).toEqual([])
    },
  },
  paymentMethod: {
    bank: (p) =>
      methodForm(p, {
        intent: 'bank',
        kind: 'bank',
        holderName: 'Felix Pages',
        iban: 'GB82 WEST 1234 5698 7654 32',
      }),
    paypal: (p) =>
      methodForm(p, {
        intent: 'paypal',
        kind: 'paypal',
        holderName: 'Felix Pages',
        email: 'felix@example.test',
      }),
    update: async (p) =>
      methodForm(p, { intent: 'update', id: (await payoutMethods(p)).bank, holderName: 'Felix P. Pages' }),
    default: async (p) =>
      methodForm(p, { intent: 'status', id: (await payoutMethods(p)).paypal, change: 'default' }),
    delete: async (p) =>
      methodForm(p, { intent: 'status', id: (await payoutMethods(p)).bank, change: 'delete' }),
  },
  adminUser: {
    suspend: (p) => adminUserForm(p, 'suspend'),
    delete: (p) => adminUserForm(p, 'delete'),
  },
  adminDispute: {
    decide: async (p) => {
      const { projectId, requestId } = await refundAsked(p, true)
      const { complaintId } = await api('POST', `refund-requests/${requestId}/dispute`, p.client)
      const before = await refunds(p.client, projectId)
      const answer = await post(`/admin/complaints/${complaintId}`, p.adminSession, {
        intent: 'decide',
        outcome: 'split',
        refundMinor: '50.00',
        reason: 'Half of the calculations were done.',
      })
      expect(answer.status).toBe(200)
      const step = decode(await answer.text())
      expect(step).toContain('data-testid="confirm-step"')
      // 50.00 of the 1,200.00 held back to the client, the rest released.
      expect(step).toContain('Refund €50.00 to the client and release €1,150.00 to the freelancer?')
      expect(await refunds(p.client, projectId)).toEqual(before)
    },
  },
  adminContent: {
    delete: async (p) => {
      const faq = async () => (await api('GET', 'Settings/faq', null)).data as Array<{ id: number }>
      const before = await faq()
      expect(before.length).toBeGreaterThan(0)
      const answer = await post('/admin/content/faq', p.adminSession, {
        intent: 'delete',
        id: String(before[0]!.id),
      })
      // The content list has no notice of its own: the refusal goes back to it as a flash notice.
      expect(answer.status).toBe(302)
      expect(answer.headers.get('location')).toBe('/admin/content/faq')
      expect(await faq()).toEqual(before)
    },
  },
}

const guarded = Object.entries(confirmedForms).flatMap(([page, intents]) =>
  intents.map((intent) => [page, intent] as [ConfirmedPage, string]),
)

describe('every form that moves money or cannot be undone acts only from its confirmation step', () => {
  test('each guarded form of the list has its bare POST below, and nothing else is there', () => {
    for (const [page, intents] of Object.entries(confirmedForms))
      expect(Object.keys(bare[page as ConfirmedPage]).sort()).toEqual([...intents].sort())
  })

  test.each(guarded)('%s %s: the bare POST is refused and changes nothing', async (page, intent) => {
    await (bare[page] as Record<string, Bare>)[intent]!(await who())
  })

  test('from the step, approving releases and withdrawing pays out, and the pages say so', async () => {
    const p = await who()
    const { projectId, first } = await hired(p, 'submitted')
    const confirmed = await post(`/projects/client/details/${projectId}`, pages.session, {
      intent: 'installment-approve',
      id: String(first),
      confirmed: 'yes',
    })
    expect([302, 303]).toContain(confirmed.status)
    expect(await statusOf(p.client, projectId, first)).toBe('released')

    // The withdrawal's step names the amount and the account; only its own form pays out.
    const withdraw = { amount: '500', currency: 'EUR', paymentMethodId: (await payoutMethods(p)).bank }
    const step = await post('/payouts', p.freelancerSession, withdraw)
    expect(decode(await step.text())).toMatch(/Withdraw €500\.00 to Bank account · DE89 .*3000\?/)
    const before = (await api('GET', 'Payment/payouts', p.freelancer)).data.length
    const paid = await post('/payouts', p.freelancerSession, { ...withdraw, confirmed: 'yes' })
    expect([302, 303]).toContain(paid.status)
    expect((await api('GET', 'Payment/payouts', p.freelancer)).data).toHaveLength(before + 1)
  })
})
