import { describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { contractFor, usePayments } from '../../../tests/support/modules/payments.ts'
import { disputeHelpers } from '../../../tests/support/modules/disputes.ts'

// Who reads a complaint (decisions 230–234), on both databases through the real API: a complaint
// of each kind is read by its author, the other party where there is one, and admins; the admin's
// audited reading of a chat room or a contract's chat. The money of disputes is in disputes.test.ts.
for (const dialect of portableDialects) {
  describe(`who reads a complaint on ${dialect}`, () => {
    const s = usePayments(dialect)
    const { file } = disputeHelpers(s)
    type Person = { token: string }

    /** A message on complaint `id` from `who`. */
    const write = (id: number, who: Person, body: string) =>
      s.t.call('POST', `complaints/${id}/messages`, { token: who.token, body: { body } })

    /** A contract between the client and the freelancer, and its chat room. */
    async function contractWithRoom() {
      const c = await contractFor(s.t.call, s.database, s.client, s.freelancer, [30000])
      const room = await s.database.db
        .selectFrom('chat_room')
        .select('id')
        .where('project_id', '=', c.projectId)
        .executeTakeFirstOrThrow()
      return { c, room }
    }

    test('who reads a complaint: its author, the other party for contracts, installments, projects and rooms (not a person reported by name), admins; everyone else 404', async () => {
      const { c, room } = await contractWithRoom()
      const kinds = [
        `contract:${c.contractId}`,
        `installment:${c.installments[0].id}`,
        `project:${c.projectId}`,
        `chat_room:${room.id}`,
        `user:${s.client.id}`,
        'platform',
      ]
      for (const subject of kinds) {
        const filed = await file(s.freelancer, subject)
        expect(filed.status, `${subject} ${filed.text}`).toBe(200)
        const id = filed.json.id
        const partySees = !subject.startsWith('user') && subject !== 'platform'
        expect(
          (await s.t.call('GET', `complaints/${id}`, { token: s.freelancer.token })).json.viewer,
          subject,
        ).toBe('author')
        const party = await s.t.call('GET', `complaints/${id}`, { token: s.client.token })
        expect(party.status, subject).toBe(partySees ? 200 : 404)
        expect((await s.t.call('GET', `complaints/${id}`, { token: s.other.token })).status, subject).toBe(
          404,
        )
        expect((await s.t.call('GET', `Admin/complaints/${id}`, { token: s.admin.token })).json.viewer).toBe(
          'support',
        )
        expect(
          (await s.t.call('GET', 'complaints', { token: s.client.token })).json.data.some(
            (x: { id: number }) => x.id === id,
          ),
          subject,
        ).toBe(partySees)
        expect((await write(id, s.other, 'Let me in')).status).toBe(404)
        if (!partySees) {
          expect((await write(id, s.client, 'What did he say?')).status).toBe(404)
          continue
        }
        expect(party.json.viewer).toBe('party')
        // The other party answers: the ticket's state stays, the author and support are told.
        const answered = await write(id, s.client, 'The drawings miss the second floor.')
        expect(answered.status, answered.text).toBe(200)
        expect(answered.json).toMatchObject({ state: 'open', viewer: 'party' })
        expect(answered.json.messages.at(-1)).toMatchObject({
          fromSupport: false,
          authorName: 'Clara Client',
        })
      }
      await s.t.api.jobs.outbox.drain()
      expect(
        (await s.t.call('GET', 'notifications', { token: s.freelancer.token })).json.data.some(
          (n: { title: string }) => n.title === 'The other party answered',
        ),
      ).toBe(true)
      expect(
        (await s.t.call('GET', 'notifications', { token: s.admin.token })).json.data.some(
          (n: { type: string }) => n.type === 'Complaint',
        ),
      ).toBe(true)
    })

    test('an admin handling a complaint about a chat room or a contract reads its chat, audited; nobody else can; the platform has no room', async () => {
      const { c, room } = await contractWithRoom()
      const said = await s.t.call('POST', `chat/${room.id}`, {
        token: s.client.token,
        body: { text: 'Send me the files now or else.', clientMessageId: 'threat-0001' },
      })
      expect(said.status, said.text).toBe(200)
      const filed = await file(s.freelancer, `chat_room:${room.id}`, 'Threats in the chat')
      for (const u of [s.client, s.freelancer, s.other])
        expect(
          (await s.t.call('GET', `Admin/complaints/${filed.json.id}/room`, { token: u.token })).status,
        ).toBe(403)
      const read = await s.t.call('GET', `Admin/complaints/${filed.json.id}/room`, { token: s.admin.token })
      expect(read.status, read.text).toBe(200)
      expect(read.json.roomId).toBe(room.id)
      expect(read.json.messages.map((m: { body: string }) => m.body)).toContain(
        'Send me the files now or else.',
      )
      const audit = await s.t.call('GET', `Admin/audit?objectType=chat_room&objectId=${room.id}`, {
        token: s.admin.token,
      })
      expect(audit.json.data[0]).toMatchObject({
        action: 'read_room',
        actor: { id: s.admin.id },
        reason: null,
        params: { complaintId: filed.json.id },
      })
      // A complaint about the contract reads the contract's chat (decision 313); one about the platform has none.
      const contractLevel = await file(s.freelancer, `contract:${c.contractId}`)
      const contractRoom = await s.t.call('GET', `Admin/complaints/${contractLevel.json.id}/room`, {
        token: s.admin.token,
      })
      expect(contractRoom.json.roomId).toBe(room.id)
      const platform = await file(s.freelancer, 'platform')
      expect(
        (await s.t.call('GET', `Admin/complaints/${platform.json.id}/room`, { token: s.admin.token })).status,
      ).toBe(404)
    })
  })
}
