import { describe, expect, test } from 'vitest'
import {
  confirmedForms,
  type ConfirmedIntent,
  type ConfirmedPage,
} from '../../app/lib/confirmed-forms.server.ts'
import { PAGE_FREELANCER } from './page-server.ts'
import {
  answeredWithStep,
  api,
  clientView,
  decode,
  hired,
  hiringRequest,
  login,
  openProject,
  payoutMethods,
  post,
  propose,
  refundAsked,
  refunds,
  refusedWithWords,
  statusOf,
  submittedWeek,
  useConfirmPages,
  verificationRequest,
  who,
  type People,
} from './confirm-steps-setup.ts'

// Decision 310: a form that moves money or cannot be undone acts only when its confirmation step's
// own form sent it. Every such form is listed once, in app/lib/confirmed-forms.server.ts, which the
// actions ask; here each one of that list is posted bare (what a page without the step, a stale tab
// or a forged request sends) and must be refused, or answered with its step, and change nothing.
// Over the built server, as a browser without JavaScript posts.
const pages = useConfirmPages()

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

/** An admin's bare decision of the freelancer's verification request: refused, and the request still waits. */
async function adminVerificationForm(p: People, intent: string) {
  const id = await verificationRequest(p)
  const answer = await post('/admin/verifications', p.adminSession, {
    intent,
    id: String(id),
    name: 'Felix Pages',
    reason: 'The document is unreadable.',
  })
  await refusedWithWords(answer)
  expect((await api('GET', 'verification', p.freelancer)).state).toBe('pending')
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
  adminVerification: {
    approve: (p) => adminVerificationForm(p, 'approve'),
    reject: (p) => adminVerificationForm(p, 'reject'),
  },
  hiring: {
    cancel: async (p) => {
      const id = await hiringRequest(p)
      await refusedWithWords(await post(`/hiring/${id}`, pages.session, { intent: 'cancel' }))
      expect((await api('GET', `hiring/requests/${id}`, p.client)).state).toBe('open')
    },
  },
  adminHiring: {
    close: async (p) => {
      const id = await hiringRequest(p)
      const answer = await post(`/admin/hiring/${id}`, p.adminSession, {
        intent: 'close',
        reason: 'The client found someone.',
      })
      await refusedWithWords(answer)
      expect((await api('GET', `hiring/requests/${id}`, p.client)).state).toBe('open')
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
