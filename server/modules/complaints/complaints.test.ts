import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, useChat } from '../../../tests/support/modules/chat.ts'
import { Role } from '../identity/permissions.ts'

// Complaints and support tickets on both databases (issue 18 item 1): a complaint about one's own
// contract with an attachment, refusals that name the field and store nothing (another's object,
// bad input), another user's ticket as 404, support's side (403 for every other role), the state
// machine with reasons in the audit trail, notifications and mails, and /contact-us as a ticket.
for (const dialect of dialects) {
  describe(`complaints on ${dialect}`, () => {
    const s = useChat(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, stranger: U, admin: U
    let contract: Awaited<ReturnType<typeof s.t.contract>>

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'One')
      stranger = await s.t.user('company', 'Otto', 'Other')
      admin = await s.t.user('client', 'Sam', 'Support')
      await s.database.db
        .updateTable('user_role')
        .set({ role: Role.SuperAdmin })
        .where('user_id', '=', admin.id)
        .execute()
      contract = await s.t.contract(client, free)
    }, 60_000)

    const count = async (table: 'complaint' | 'complaint_message' | 'stored_file' | 'admin_audit') =>
      Number(
        (
          await s.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const mails = async (to: string) =>
      (await s.database.db.selectFrom('outbox').select('payload').where('topic', '=', 'email').execute())
        .map((r) => JSON.parse(r.payload) as { to: string; subject: string; text: string })
        .filter((m) => m.to === to)

    const complaint = {
      title: 'Report never delivered',
      description: 'The freelancer stopped answering after the first installment was funded.',
    }

    test('the subjects are what the user is part of; another user cannot name them (400 naming subject, nothing stored)', async () => {
      const mine = await s.t.call('GET', 'complaints/subjects', { token: client.token })
      expect(mine.status).toBe(200)
      const kinds = mine.json.data.map((s: { kind: string; id: number | null }) => `${s.kind}:${s.id}`)
      expect(kinds).toEqual(
        expect.arrayContaining([
          `contract:${contract.id}`,
          `project:${contract.projectId}`,
          `installment:${contract.installments[0].id}`,
          `chat_room:${contract.roomId}`,
          `user:${free.id}`,
          'platform:null',
        ]),
      )
      const theirs = await s.t.call('GET', 'complaints/subjects', { token: stranger.token })
      expect(theirs.json.data.map((s: { kind: string }) => s.kind)).toEqual(['platform'])

      const before = await count('complaint')
      const refused = await s.t.call('POST', 'complaints', {
        token: stranger.token,
        body: { subject: `contract:${contract.id}`, ...complaint },
      })
      expect(refused.status).toBe(400)
      expect(Object.keys(refused.json.errors)).toEqual(['subject'])
      const bad = await s.t.call('POST', 'complaints', {
        token: client.token,
        body: { subject: 'contract:abc', title: 'x', description: '' },
      })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors).sort()).toEqual(['description', 'subject', 'title'])
      const badFile = await s.t.postForm(
        'complaints',
        client.token,
        { subject: `contract:${contract.id}`, ...complaint },
        [['virus.exe', Buffer.from('MZ')]],
      )
      expect(badFile.status).toBe(400)
      expect(await count('complaint')).toBe(before)
    })

    test('a complaint about a contract with an attachment, through support and back: states, notifications, mails and the audit trail', async () => {
      const files = await count('stored_file')
      const filed = await s.t.postForm(
        'complaints',
        free.token,
        { subject: `contract:${contract.id}`, ...complaint },
        [['evidence.pdf', tinyPdf()]],
      )
      expect(filed.status, filed.text).toBe(200)
      const id = filed.json.id as number
      expect(filed.json).toMatchObject({
        state: 'open',
        source: 'app',
        subject: { kind: 'contract', id: contract.id },
        title: complaint.title,
        nextStates: [],
        audit: [],
      })
      expect(filed.json.messages[0]).toMatchObject({
        fromSupport: false,
        body: complaint.description,
        attachments: [{ name: 'evidence.pdf', mime: 'application/pdf' }],
      })
      expect(await count('stored_file')).toBe(files + 1)
      expect((await mails(free.email)).some((m) => m.text.includes(`#${id}`))).toBe(true)
      // Its receipt is a mail: the bell is for what others did.
      await s.t.api.jobs.outbox.drain()
      expect(
        (await s.t.call('GET', 'notifications', { token: free.token })).json.data.some(
          (n: { type: string }) => n.type === 'Complaint',
        ),
      ).toBe(false)
      const fileId = filed.json.messages[0].attachments[0].id
      // The author, the other side of the contract (decision 232) and support may read the file; strangers may not.
      expect((await s.t.raw('GET', `files/${fileId}/download`, { token: free.token })).status).toBe(200)
      expect((await s.t.raw('GET', `files/${fileId}/download`, { token: client.token })).status).toBe(200)
      expect((await s.t.raw('GET', `files/${fileId}/download`, { token: admin.token })).status).toBe(200)
      expect((await s.t.raw('GET', `files/${fileId}/download`, { token: stranger.token })).status).toBe(404)

      // Another user's ticket is not found, to read or to reply to; nothing changes.
      expect((await s.t.call('GET', `complaints/${id}`, { token: stranger.token })).status).toBe(404)
      expect(
        (
          await s.t.call('POST', `complaints/${id}/messages`, {
            token: stranger.token,
            body: { body: 'Let me in' },
          })
        ).status,
      ).toBe(404)
      expect((await s.t.call('GET', 'complaints', { token: stranger.token })).json.total).toBe(0)
      expect(
        (await s.t.call('GET', 'complaints', { token: free.token })).json.data.map(
          (c: { id: number }) => c.id,
        ),
      ).toContain(id)

      // Support: every Admin call is refused to the other roles.
      for (const u of [client, free, stranger]) {
        expect((await s.t.call('GET', 'Admin/complaints', { token: u.token })).status).toBe(403)
        expect(
          (
            await s.t.call('POST', `Admin/complaints/${id}/state`, {
              token: u.token,
              body: { state: 'resolved', reason: 'Because I say so' },
            })
          ).status,
        ).toBe(403)
        expect((await s.t.call('POST', `Admin/complaints/${id}/assign`, { token: u.token })).status).toBe(403)
        expect((await s.t.call('GET', 'Admin/audit', { token: u.token })).status).toBe(403)
      }
      const queue = await s.t.call('GET', 'Admin/complaints?state=open&kind=contract', { token: admin.token })
      expect(queue.json.data.map((c: { id: number }) => c.id)).toContain(id)
      expect(
        (await s.t.call('GET', 'Admin/complaints?state=resolved', { token: admin.token })).json.data.map(
          (c: { id: number }) => c.id,
        ),
      ).not.toContain(id)
      expect(
        (await s.t.call('GET', 'Admin/complaints?kind=platform', { token: admin.token })).json.data.map(
          (c: { id: number }) => c.id,
        ),
      ).not.toContain(id)
      expect(
        (await s.t.call('GET', 'Admin/complaints?state=nope', { token: admin.token })).json.errors,
      ).toHaveProperty('state')

      const assigned = await s.t.call('POST', `Admin/complaints/${id}/assign`, { token: admin.token })
      expect(assigned.json.assignee).toEqual({ id: admin.id, name: 'Sam Support' })
      const replied = await s.t.call('POST', `Admin/complaints/${id}/reply`, {
        token: admin.token,
        body: { body: 'Could you send the messages where you asked for the report?' },
      })
      expect(replied.json.messages.at(-1)).toMatchObject({ fromSupport: true })
      // A reason is required, and a move the machine does not have is a conflict; nothing changes.
      const audits = await count('admin_audit')
      const noReason = await s.t.call('POST', `Admin/complaints/${id}/state`, {
        token: admin.token,
        body: { state: 'waiting_on_user', reason: '' },
      })
      expect(noReason.status).toBe(400)
      expect(Object.keys(noReason.json.errors)).toEqual(['reason'])
      expect(
        (
          await s.t.call('POST', `Admin/complaints/${id}/state`, {
            token: admin.token,
            body: { state: 'closed', reason: 'Skipping ahead' },
          })
        ).status,
      ).toBe(409)
      expect(await count('admin_audit')).toBe(audits)

      const waiting = await s.t.call('POST', `Admin/complaints/${id}/state`, {
        token: admin.token,
        body: { state: 'waiting_on_user', reason: 'We need the chat messages.' },
      })
      expect(waiting.status, waiting.text).toBe(200)
      expect(waiting.json.state).toBe('waiting_on_user')
      await s.t.api.jobs.outbox.drain()
      const bell = await s.t.call('GET', 'notifications', { token: free.token })
      expect(bell.json.data[0]).toMatchObject({ type: 'Complaint', title: 'Support needs your reply' })
      expect(bell.json.data[0].content).toContain('We need the chat messages.')
      // The other side of the contract heard that the complaint names them (decision 232), and nothing of support's moves.
      expect(
        (await s.t.call('GET', 'notifications', { token: client.token })).json.data
          .filter((n: { type: string }) => n.type === 'Complaint')
          .map((n: { title: string }) => n.title),
      ).toEqual(['A complaint names you'])

      const answer = await s.t.call('POST', `complaints/${id}/messages`, {
        token: free.token,
        body: { body: 'Here they are: he promised the report for Friday.' },
      })
      expect(answer.json.state).toBe('in_progress')
      expect(answer.json.messages.at(-2)).toMatchObject({ fromSupport: true, authorName: 'Workneer support' })
      await s.t.api.jobs.outbox.drain()
      expect((await s.t.call('GET', 'notifications', { token: admin.token })).json.data[0]).toMatchObject({
        type: 'Complaint',
        title: 'A user replied',
      })

      const resolved = await s.t.call('POST', `Admin/complaints/${id}/state`, {
        token: admin.token,
        body: { state: 'resolved', reason: 'The freelancer delivered the report.' },
      })
      expect(resolved.json.state).toBe('resolved')
      expect(
        resolved.json.audit.map(
          (a: { action: string; toState: string | null; reason: string | null; actor: { id: number } }) => [
            a.action,
            a.toState,
            a.reason,
            a.actor.id,
          ],
        ),
      ).toEqual([
        ['assign', null, null, admin.id],
        ['reply', null, null, admin.id],
        ['ask_user', 'waiting_on_user', 'We need the chat messages.', admin.id],
        ['resolve', 'resolved', 'The freelancer delivered the report.', admin.id],
      ])
      expect(
        (await s.t.call('GET', `Admin/audit?objectType=complaint&objectId=${id}`, { token: admin.token }))
          .json.data,
      ).toHaveLength(4)
      // The author does not see the audit trail.
      expect((await s.t.call('GET', `complaints/${id}`, { token: free.token })).json.audit).toEqual([])

      const closed = await s.t.call('POST', `Admin/complaints/${id}/state`, {
        token: admin.token,
        body: { state: 'closed', reason: 'Resolved a week ago.' },
      })
      expect(closed.json).toMatchObject({ state: 'closed', canReply: false, nextStates: [] })
      const other = await s.t.call('POST', 'complaints', {
        token: client.token,
        body: {
          subject: 'platform',
          title: 'Invoices missing',
          description: 'I cannot find the invoices of my last two payments.',
        },
      })
      const order = (await s.t.call('GET', 'Admin/complaints', { token: admin.token })).json.data.map(
        (c: { id: number }) => c.id,
      )
      expect(order.indexOf(other.json.id)).toBeLessThan(order.indexOf(id))
      const messages = await count('complaint_message')
      expect(
        (
          await s.t.call('POST', `complaints/${id}/messages`, {
            token: free.token,
            body: { body: 'One more thing' },
          })
        ).status,
      ).toBe(409)
      expect(await count('complaint_message')).toBe(messages)
    })

    test('a message through /contact-us becomes a ticket: by address from a visitor, on the account when signed in', async () => {
      const message = {
        name: 'Vera Visitor',
        email: 'Vera@Example.test',
        subject: 'Question about fees',
        message: 'How much does Workneer charge a client per project?',
      }
      const sent = await s.t.call('POST', 'support/contact-us', { body: message })
      expect(sent.status, sent.text).toBe(200)
      const visitor = await s.database.db
        .selectFrom('complaint')
        .selectAll()
        .where('contact_message_id', '=', sent.json.id)
        .executeTakeFirstOrThrow()
      expect(visitor).toMatchObject({
        author_id: null,
        email: 'vera@example.test',
        source: 'contact',
        subject_kind: 'platform',
        status: 'open',
        title: message.subject,
      })
      const signedIn = await s.t.call('POST', 'support/contact-us', {
        token: stranger.token,
        body: { ...message, email: stranger.email },
      })
      const linked = await s.database.db
        .selectFrom('complaint')
        .select(['id', 'author_id'])
        .where('contact_message_id', '=', signedIn.json.id)
        .executeTakeFirstOrThrow()
      expect(linked.author_id).toBe(stranger.id)
      expect(
        (await s.t.call('GET', `complaints/${linked.id}`, { token: stranger.token })).json.messages[0].body,
      ).toBe(message.message)
      // Support's reply reaches the visitor by mail, with the reply in it.
      const reply = await s.t.call('POST', `Admin/complaints/${visitor.id}/reply`, {
        token: admin.token,
        body: { body: 'Clients pay a 5% service fee on each installment.' },
      })
      expect(reply.status, reply.text).toBe(200)
      expect((await mails('vera@example.test')).some((m) => m.text.includes('5% service fee'))).toBe(true)
    })
  })
}
