import { describe, expect, test } from 'vitest'
import { testCards } from '#server/modules/payments/gateways/test-cards.ts'
import { PAGE_ACCOUNT, PAGE_FREELANCER, signedInPageServer } from './page-server.ts'

// Decision 310: a form that moves money acts only when its confirmation step's own form sent it.
// A bare POST of the page's first form (what a page without the step, a stale tab or a forged
// request sends) is refused with words and changes nothing; the same form from the step acts.
// Over the built server, as a browser without JavaScript posts.
const pages = signedInPageServer({ freelancer: true })
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

/** A project of the page client, hired from the page freelancer, with its first installment funded and submitted. */
async function submittedInstallment(client: string, freelancer: string) {
  const { data } = await api('GET', 'settings/dropdowns/subcategories', null)
  const installments = [
    { title: 'Calculations', amountMinor: 120000 },
    { title: 'Drawings', amountMinor: 60000 },
  ]
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
  const proposal = await api('POST', `projects/${project.id}/proposal`, freelancer, {
    coverLetter: 'I check timber trusses every week and can report within ten days.',
    bidMinor: 180000,
    durationDays: 10,
    installments,
  })
  const contract = await api('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, client)
  const [first, second] = (contract.installments as Array<{ id: number }>).map((i) => i.id)
  const payment = await api('POST', 'Payment/PayProjectInstallments', client, {
    projectId: project.id,
    installmentIds: [first],
  })
  await api('POST', `Payment/sandbox/${payment.token}/pay`, null, {
    cardNumber: testCards.succeeds,
    expiry: '12/40',
    cvc: '123',
    name: 'Paula Pages',
  })
  await api('POST', `projects/installments/${first}/submit`, freelancer, { note: 'Calculations attached.' })
  return { projectId: project.id as number, first: first!, second: second! }
}

const statusOf = async (client: string, projectId: number, id: number) => {
  const view = await api('GET', `projects/${projectId}/details-for-client`, client)
  return (view.contract.installments as Array<{ id: number; status: string }>).find((i) => i.id === id)!
    .status
}

describe('a form that moves money acts only from its confirmation step', () => {
  test('approve, pay and withdraw: the bare form is refused and nothing moves; the step acts', async () => {
    const [client, freelancer] = [await login(PAGE_ACCOUNT), await login(PAGE_FREELANCER)]
    const { projectId, first, second } = await submittedInstallment(client, freelancer)
    const details = `/projects/client/details/${projectId}`

    // Approve (releases €1,200.00 at once): refused without the step, nothing released.
    const bare = await post(details, pages.session, { intent: 'installment-approve', id: String(first) })
    expect(bare.status).toBe(400)
    expect(decode(await bare.text())).toContain('Please confirm first: nothing has changed.')
    expect(await statusOf(client, projectId, first)).toBe('submitted')
    // Cancelling the project is refused the same way.
    const cancel = await post(details, pages.session, { intent: 'cancelled' })
    expect(cancel.status).toBe(400)
    expect((await api('GET', `projects/${projectId}/details-for-client`, client)).project.status).toBe(
      'in_progress',
    )

    // Paying the second installment: the pay page's bare form opens no checkout.
    const pay = await post(`/projects/client/pay/${projectId}`, pages.session, {
      installment: String(second),
      totalMinor: '61800',
    })
    expect(pay.status).toBe(400)
    expect(pay.headers.get('location')).toBeNull()
    expect(await statusOf(client, projectId, second)).toBe('pending')

    // From the step: released, and the page says so.
    const confirmed = await post(details, pages.session, {
      intent: 'installment-approve',
      id: String(first),
      confirmed: 'yes',
    })
    expect([302, 303]).toContain(confirmed.status)
    expect(await statusOf(client, projectId, first)).toBe('released')

    // Withdrawing: the bare form answers with the step, naming amount and account; no payout yet.
    await api('POST', 'freelancers/AddFreelancerPaymentMethod', freelancer, {
      kind: 'bank',
      holderName: 'Felix Pages',
      iban: 'DE89 3704 0044 0532 0130 00',
    })
    const me = await api('GET', 'identity/profile', freelancer)
    const methods = await api('GET', `freelancers/${me.id}/GetAllPaymentMethodsForFreelancer`, freelancer)
    const methodId = String(methods.data[0].id)
    const session = await pages.server.signIn(PAGE_FREELANCER)
    const withdraw = { amount: '500', currency: 'EUR', paymentMethodId: methodId }
    const step = await post('/payouts', session, withdraw)
    expect(step.status).toBe(200)
    expect(decode(await step.text())).toMatch(/Withdraw €500\.00 to Bank account · DE89 .*3000\?/)
    expect((await api('GET', 'Payment/payouts', freelancer)).data).toEqual([])
    const paid = await post('/payouts', session, { ...withdraw, confirmed: 'yes' })
    expect([302, 303]).toContain(paid.status)
    expect((await api('GET', 'Payment/payouts', freelancer)).data).toHaveLength(1)
  })
})
