import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, tinyPng, useModuleApi } from '../../../tests/integration/module-api.ts'
import { askVerification } from '../../../tests/support/modules/verification.ts'

// Verified identity on both databases (issue 42 item 4, decision 332): the document is stored
// encrypted, read by SuperAdmins only and deleted with its key once the request is decided; the
// refusals change nothing; the badge and the filter reach Find Freelancers.
for (const dialect of dialects) {
  describe(`verified identity on ${dialect}`, () => {
    const s = useModuleApi(dialect, { name: 'verify', addressBlock: 88 })
    type U = Awaited<ReturnType<typeof s.t.user>>
    let admin: U, client: U

    beforeAll(async () => {
      admin = await s.t.admin()
      client = await s.t.user('client', 'Cora', 'Client')
    }, 60_000)

    const ask = (token: string, name: string, bytes: Buffer, kind = 'identity') =>
      askVerification(s.t.raw, token, { name, bytes }, kind)
    const documents = () => s.database.db.selectFrom('verification_document').selectAll().execute()
    const requests = (userId: number) =>
      s.database.db.selectFrom('identity_verification').selectAll().where('user_id', '=', userId).execute()
    const pendingOf = async (userId: number) => (await requests(userId)).find((r) => r.state === 'pending')!

    test('the document is kept encrypted, opened by SuperAdmins only, and deleted with its key once decided', async () => {
      const free = await s.t.user('freelancer', 'Vera', 'Verified')
      const pdf = Buffer.concat([tinyPdf(), Buffer.from('\n% passport number X1234567\n')])
      const asked = await ask(free.token, 'passport.pdf', pdf)
      expect(asked.status, JSON.stringify(asked.json)).toBe(200)
      expect(asked.json).toMatchObject({ state: 'pending', canAsk: false, kind: 'identity' })
      const { id } = await pendingOf(free.id)
      const stored = (await documents()).find((d) => d.verification_id === id)!
      const cipher = Buffer.from(stored.ciphertext)
      expect(cipher.length).toBe(pdf.length)
      expect(cipher.equals(pdf)).toBe(false)
      expect(cipher.includes(Buffer.from('%PDF'))).toBe(false)
      expect(cipher.includes(Buffer.from('X1234567'))).toBe(false)

      // Nobody but a SuperAdmin reads it: not its owner, not a client.
      for (const token of [free.token, client.token]) {
        const denied = await s.t.raw('GET', `Admin/verifications/${id}/document`, { token })
        expect(denied.status).toBe(403)
      }
      expect((await s.t.raw('GET', `Admin/verifications/${id}/document`)).status).toBe(401)
      const opened = await s.t.raw('GET', `Admin/verifications/${id}/document`, { token: admin.token })
      expect(opened.status).toBe(200)
      expect(opened.headers.get('content-type')).toBe('application/pdf')
      expect(opened.headers.get('cache-control')).toMatch(/no-store/)
      expect(Buffer.from(await opened.arrayBuffer()).equals(pdf)).toBe(true)

      const listed = await s.t.call('GET', 'Admin/verifications', { token: admin.token })
      expect(listed.json.data.map((r: { id: number }) => r.id)).toContain(id)

      const approved = await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'approve' },
      })
      expect(approved.status, approved.text).toBe(200)
      expect(approved.json.state).toBe('verified')
      expect((await documents()).some((d) => d.verification_id === id)).toBe(false)
      expect(
        (await s.t.raw('GET', `Admin/verifications/${id}/document`, { token: admin.token })).status,
      ).toBe(404)
      const again = await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'reject', reason: 'Too late' },
      })
      expect([again.status, again.json.code]).toEqual([409, 'already_decided'])
      expect((await requests(free.id))[0]).toMatchObject({ state: 'verified', reason: null })

      const audit = await s.database.db
        .selectFrom('admin_audit')
        .select('action')
        .where('object_type', '=', 'identity_verification')
        .where('object_id', '=', id)
        .orderBy('id')
        .execute()
      expect(audit.map((a) => a.action)).toEqual(['verification.document', 'verification.approve'])
      const notice = await s.database.db
        .selectFrom('notification')
        .select(['message_key', 'type'])
        .where('user_id', '=', free.id)
        .execute()
      expect(notice).toEqual([{ message_key: 'verification:notify.approved', type: 'Verification' }])
      const outbox = await s.database.db.selectFrom('outbox').select(['topic', 'payload']).execute()
      const payloads = outbox.map((m) => (typeof m.payload === 'string' ? JSON.parse(m.payload) : m.payload))
      expect(payloads).toContainEqual(
        expect.objectContaining({ to: free.email, kind: 'verificationApproved', language: 'en' }),
      )
      const status = await s.t.call('GET', 'verification', { token: free.token })
      expect(status.json).toMatchObject({ state: 'verified', canAsk: false })
      const more = await ask(free.token, 'again.pdf', tinyPdf())
      expect([more.status, more.json.code]).toEqual([409, 'already_verified'])
    })

    test('refusals: clients and admins may not ask (403), one open request (409), a wrong file (400); a rejection says why and lets them ask again', async () => {
      const before = (await documents()).length
      expect((await ask(client.token, 'id.pdf', tinyPdf())).status).toBe(403)
      expect((await ask(admin.token, 'id.pdf', tinyPdf())).status).toBe(403)
      const company = await s.t.user('company', 'Carl', 'Company')
      const exe = await ask(company.token, 'registry.pdf', Buffer.from('MZ this is not a pdf at all'))
      expect(exe.status).toBe(400)
      expect(exe.json.errors).toHaveProperty('file')
      const badKind = await ask(company.token, 'registry.pdf', tinyPdf(), 'passport')
      expect(badKind.status).toBe(400)
      expect(badKind.json.errors).toHaveProperty('kind')
      const json = await s.t.call('POST', 'verification', { token: company.token, body: { kind: 'company' } })
      expect([json.status, json.json.code]).toEqual([400, 'file_missing'])
      expect((await documents()).length).toBe(before)

      expect((await ask(company.token, 'registry.png', tinyPng(), 'company')).status).toBe(200)
      const second = await ask(company.token, 'registry.pdf', tinyPdf(), 'company')
      expect([second.status, second.json.code]).toEqual([409, 'verification_open'])
      expect((await requests(company.id)).length).toBe(1)

      const { id } = await pendingOf(company.id)
      const noReason = await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'reject' },
      })
      expect(noReason.status).toBe(400)
      expect(noReason.json.errors).toHaveProperty('reason')
      const rejected = await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'reject', reason: 'The registration extract is older than three months' },
      })
      expect(rejected.status, rejected.text).toBe(200)
      expect((await documents()).length).toBe(before)
      const status = await s.t.call('GET', 'verification', { token: company.token })
      expect(status.json).toMatchObject({
        state: 'rejected',
        canAsk: true,
        reason: 'The registration extract is older than three months',
      })
      expect((await ask(company.token, 'registry.pdf', tinyPdf(), 'company')).status).toBe(200)
    })

    test("an erased account's request and document go with its personal data", async () => {
      const gone = await s.t.user('freelancer', 'Gus', 'Gone')
      expect((await ask(gone.token, 'id.pdf', tinyPdf())).status).toBe(200)
      const { id } = await pendingOf(gone.id)
      const deleted = await s.t.call('POST', `Admin/users/${gone.id}/delete`, {
        token: admin.token,
        body: { reason: 'The person asked to be forgotten' },
      })
      expect(deleted.status, deleted.text).toBe(200)
      expect(await requests(gone.id)).toEqual([])
      expect((await documents()).some((d) => d.verification_id === id)).toBe(false)
    })

    test('Find Freelancers shows the badge and filters to verified freelancers only', async () => {
      const plain = await s.t.user('freelancer', 'Pia', 'Plain')
      const sure = await s.t.user('freelancer', 'Sam', 'Sure')
      // A profile with a title is listed in Find Freelancers.
      for (const f of [plain, sure])
        expect(
          (
            await s.t.call('PUT', 'freelancers/profile/title', {
              token: f.token,
              body: { title: 'Bridge engineer' },
            })
          ).status,
        ).toBe(200)
      expect((await ask(sure.token, 'id.pdf', tinyPdf())).status).toBe(200)
      const { id } = await pendingOf(sure.id)
      const search = (query: string) =>
        s.t.call('GET', `freelancers/search?pageSize=50${query}`, { token: client.token })
      const pending = await search('&verifiedOnly=true')
      expect(pending.json.data.map((h: { userId: number }) => h.userId)).not.toContain(sure.id)
      await s.t.call('POST', `Admin/verifications/${id}/decide`, {
        token: admin.token,
        body: { decision: 'approve' },
      })
      const all = await search('')
      expect(all.status, all.text).toBe(200)
      const hit = (userId: number) => all.json.data.find((h: { userId: number }) => h.userId === userId)
      expect(hit(sure.id)).toMatchObject({ verified: true })
      expect(hit(plain.id)).toMatchObject({ verified: false })
      const only = await search('&verifiedOnly=true')
      const ids = only.json.data.map((h: { userId: number }) => h.userId)
      expect(ids).toContain(sure.id)
      expect(ids).not.toContain(plain.id)
      expect(only.json.data.every((h: { verified: boolean }) => h.verified)).toBe(true)
    })
  })
}
