import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useModuleApi } from '../../../tests/integration/module-api.ts'
import { startSmtpServer } from '../../../tests/support/smtp.ts'

// Hiring with Workneer's help on both databases (decision 338): only clients and companies ask,
// three live requests at most, each request its author's alone; the queue is SuperAdmins'; support
// proposes up to five active freelancers, each once, and the client is told in the bell and by
// mail; every admin step leaves an audit row; a closed request takes no more changes.
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
const body = (extra: Record<string, unknown> = {}) => ({
  need: 'A structural engineer to check a timber roof before a loft conversion.',
  budgetMinMinor: 50000,
  budgetMaxMinor: 90000,
  currency: 'EUR',
  deadline: day(30),
  ...extra,
})

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(() => smtp?.close())

for (const dialect of portableDialects) {
  describe(`hiring with Workneer's help on ${dialect}`, () => {
    const s = useModuleApi(dialect, () => ({
      name: 'hiring',
      addressBlock: 74,
      freelancerTitle: 'Structural engineer',
      env: { SMTP_URL: smtp.url },
    }))
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, company: U, fred: U, fiona: U, admin: U
    let requestId: number

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      company = await s.t.user('company', 'Cora', 'Company')
      fred = await s.t.user('freelancer', 'Fred', 'Finder')
      fiona = await s.t.user('freelancer', 'Fiona', 'Framer')
      admin = await s.t.admin()
    }, 60_000)

    const count = async () =>
      Number(
        (
          await s.database.db
            .selectFrom('hiring_request')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const audit = (id: number) =>
      s.database.db
        .selectFrom('admin_audit')
        .select(['action', 'actor_id', 'from_state', 'to_state'])
        .where('object_type', '=', 'hiring_request')
        .where('object_id', '=', id)
        .orderBy('id')
        .execute()

    test('only those who hire ask, and bad input names its field and changes nothing', async () => {
      for (const who of [fred, admin]) {
        const r = await s.t.call('POST', 'hiring/requests', { token: who.token, body: body() })
        expect(r.status, r.text).toBe(403)
      }
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ deadline: day(-1) }, 'deadline'],
        [{ budgetMaxMinor: 100 }, 'budgetMaxMinor'],
        [{ currency: 'XYZ' }, 'currency'],
        [{ need: 'short' }, 'need'],
      ]
      for (const [extra, field] of cases) {
        const r = await s.t.call('POST', 'hiring/requests', { token: client.token, body: body(extra) })
        expect(r.status, r.text).toBe(400)
        expect(Object.keys(r.json.errors)).toContain(field)
      }
      expect(await count()).toBe(0)
    })

    test('a client asks, sees only their own, and a fourth live request is refused', async () => {
      const made = await s.t.call('POST', 'hiring/requests', { token: client.token, body: body() })
      expect(made.status, made.text).toBe(200)
      expect(made.json).toMatchObject({
        state: 'open',
        budgetMinMinor: 50000,
        budgetMaxMinor: 90000,
        proposed: [],
      })
      requestId = made.json.id
      const single = await s.t.call('POST', 'hiring/requests', {
        token: client.token,
        body: body({ budgetMaxMinor: undefined }),
      })
      expect(single.json.budgetMaxMinor).toBe(50000)
      await s.t.call('POST', 'hiring/requests', { token: client.token, body: body() })
      const fourth = await s.t.call('POST', 'hiring/requests', { token: client.token, body: body() })
      expect(fourth.status, fourth.text).toBe(409)
      expect(fourth.json.code).toBe('hiring_requests_limit')
      expect(await count()).toBe(3)
      // Cancelling one frees a place; a cancelled request cannot be cancelled again.
      const cancel = await s.t.call('POST', `hiring/requests/${single.json.id}/cancel`, {
        token: client.token,
      })
      expect(cancel.json.state).toBe('cancelled')
      const again = await s.t.call('POST', `hiring/requests/${single.json.id}/cancel`, {
        token: client.token,
      })
      expect(again.status).toBe(409)
      const theirs = await s.t.call('POST', 'hiring/requests', { token: company.token, body: body() })
      expect(theirs.status).toBe(200)
      const mine = await s.t.call('GET', 'hiring/requests', { token: client.token })
      expect(mine.json.total).toBe(3)
      expect(mine.json.data.map((r: { id: number }) => r.id)).not.toContain(theirs.json.id)
      for (const [method, path] of [
        ['GET', `hiring/requests/${requestId}`],
        ['POST', `hiring/requests/${requestId}/cancel`],
        ['POST', `hiring/requests/${requestId}/done`],
      ] as const) {
        const r = await s.t.call(method, path, { token: company.token })
        expect(r.status, `${method} ${path}`).toBe(404)
      }
      const queue = await s.t.call('GET', 'Admin/hiring-requests', { token: client.token })
      expect(queue.status).toBe(403)
    })

    test('support claims and proposes two freelancers; the client is told and sees them', async () => {
      const queue = await s.t.call('GET', 'Admin/hiring-requests?state=open', { token: admin.token })
      expect(queue.json.data.map((r: { id: number }) => r.id)).toContain(requestId)
      const claim = await s.t.call('POST', `Admin/hiring-requests/${requestId}/claim`, { token: admin.token })
      expect(claim.json).toMatchObject({ state: 'claimed', assignee: { id: admin.id } })
      const found = await s.t.call('GET', `Admin/hiring-requests/${requestId}?q=fiona`, {
        token: admin.token,
      })
      expect(found.json.candidates.map((c: { id: number }) => c.id)).toEqual([fiona.id])
      const refused: Array<[unknown[], string]> = [
        [Array.from({ length: 6 }, (_, i) => ({ userId: fred.id + i, note: 'x' })), 'freelancers'],
        [
          [
            { userId: fred.id, note: 'a' },
            { userId: fred.id, note: 'b' },
          ],
          'freelancers.1.userId',
        ],
        [[{ userId: client.id, note: 'Not a freelancer' }], 'freelancers.0.userId'],
      ]
      for (const [freelancers, field] of refused) {
        const r = await s.t.call('POST', `Admin/hiring-requests/${requestId}/proposal`, {
          token: admin.token,
          body: { freelancers },
        })
        expect(r.status, r.text).toBe(400)
        expect(Object.keys(r.json.errors)).toContain(field)
      }
      const since = smtp.mails.length
      const proposed = await s.t.call('POST', `Admin/hiring-requests/${requestId}/proposal`, {
        token: admin.token,
        body: {
          freelancers: [
            { userId: fiona.id, note: 'Did three loft conversions this year' },
            { userId: fred.id, note: 'Close to the site' },
          ],
        },
      })
      expect(proposed.status, proposed.text).toBe(200)
      expect(proposed.json.state).toBe('proposed')
      expect((await audit(requestId)).map((a) => [a.action, a.actor_id, a.to_state])).toEqual([
        ['claim', admin.id, 'claimed'],
        ['propose', admin.id, 'proposed'],
      ])
      // The notice is stored by one delivery, and its mail is another outbox row sent by the next.
      await s.t.api.jobs.outbox.drain()
      await s.t.api.jobs.outbox.drain()
      const bell = await s.database.db
        .selectFrom('notification')
        .select(['user_id', 'message_key', 'type'])
        .where('message_key', '=', 'shortlist:hiring.notify.proposed')
        .execute()
      expect(bell).toEqual([
        { user_id: client.id, message_key: 'shortlist:hiring.notify.proposed', type: 'Hiring' },
      ])
      const mail = await smtp.waitFor(client.email, (m) => m.text.includes('/hiring'), 15_000, since)
      expect(mail.subject).toMatch(/freelancers/i)
      expect(mail.text).toContain(`#${requestId} (how many: 2)`)
      const seen = await s.t.call('GET', `hiring/requests/${requestId}`, { token: client.token })
      expect(
        seen.json.proposed.map((p: { freelancer: { userId: number }; note: string }) => [
          p.freelancer.userId,
          p.note,
        ]),
      ).toEqual([
        [fiona.id, 'Did three loft conversions this year'],
        [fred.id, 'Close to the site'],
      ])
    })

    test('a closed request takes no proposal, and closing is audited', async () => {
      const close = await s.t.call('POST', `Admin/hiring-requests/${requestId}/close`, {
        token: admin.token,
        body: { reason: 'The client hired Fiona' },
      })
      expect(close.json.state).toBe('done')
      expect((await audit(requestId)).at(-1)).toMatchObject({
        action: 'close',
        from_state: 'proposed',
        to_state: 'done',
      })
      const late = await s.t.call('POST', `Admin/hiring-requests/${requestId}/proposal`, {
        token: admin.token,
        body: { freelancers: [{ userId: fred.id, note: 'Late' }] },
      })
      expect(late.status).toBe(409)
      expect(late.json.code).toBe('hiring_request_closed')
      const picks = await s.database.db.selectFrom('hiring_pick').select('freelancer_id').execute()
      expect(picks).toHaveLength(2)
      const done = await s.t.call('POST', `hiring/requests/${requestId}/done`, { token: client.token })
      expect(done.status).toBe(409)
    })
  })
}
