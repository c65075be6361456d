import { beforeAll, describe, expect, test } from 'vitest'
import { dialects } from '../../../tests/integration/databases.ts'
import { tinyPdf, tinyPng, useChat } from '../../../tests/support/modules/chat.ts'
import { fund } from '../../../tests/support/modules/payments.ts'

// The chat API on both databases (issue 16): rooms opened by acceptance and by Createroom, paging
// backwards, unread counts and read state, the duplicate send, membership refusals (attachments
// included), bad input that names the field and stores nothing, and the contract's system messages.
for (const dialect of dialects) {
  describe(`chat on ${dialect}`, () => {
    const s = useChat(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, stranger: U

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'One')
      stranger = await s.t.user('freelancer', 'Otto', 'Other')
    }, 60_000)

    const count = async (table: 'chat_message' | 'stored_file' | 'chat_room') =>
      Number(
        (
          await s.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    test('accepting a proposal opens the room with a system message; Createroom answers that same room to both parties and 404 to anyone else', async () => {
      const contract = await s.t.contract(client, free)
      expect(contract.roomId).toEqual(expect.any(Number))
      const first = await s.t.call('POST', `projects/Createroom/${contract.projectId}/${free.id}`, {
        token: client.token,
      })
      expect(first.json).toEqual({
        roomId: contract.roomId,
        projectId: contract.projectId,
        participants: [client.id, free.id],
      })
      expect(
        (
          await s.t.call('POST', `projects/Createroom/${contract.projectId}/${client.id}`, {
            token: free.token,
          })
        ).json.roomId,
      ).toBe(contract.roomId)
      expect(
        (
          await s.t.call('POST', `projects/Createroom/${contract.projectId}/${free.id}`, {
            token: stranger.token,
          })
        ).status,
      ).toBe(404)
      expect(
        (
          await s.t.call('POST', `projects/Createroom/${contract.projectId}/${stranger.id}`, {
            token: client.token,
          })
        ).status,
      ).toBe(404)

      const page = await s.t.call('GET', `chat/${contract.roomId}`, { token: free.token })
      expect(page.status, page.text).toBe(200)
      expect(page.json.data).toEqual([
        expect.objectContaining({
          kind: 'system',
          event: 'proposalAccepted',
          senderId: null,
          text: expect.stringContaining('Load calculations for a timber roof'),
        }),
      ])
      expect(page.json.room).toMatchObject({
        id: contract.roomId,
        project: { id: contract.projectId, title: 'Load calculations for a timber roof' },
        other: { id: client.id, name: 'Clara Client' },
        myRole: 'freelancer',
        contractId: contract.id,
      })
      // The event was the client's: unread for the freelancer only.
      expect(
        (await s.t.call('GET', `chat/${contract.roomId}/count-unread`, { token: free.token })).json,
      ).toEqual({ unreadCount: 1 })
      expect(
        (await s.t.call('GET', `chat/${contract.roomId}/count-unread`, { token: client.token })).json,
      ).toEqual({ unreadCount: 0 })
    })

    test('a client opens a room with a proposer before hiring; the proposer finds it then, but cannot open one alone', async () => {
      const other = await s.t.user('freelancer', 'Pia', 'Proposer')
      const { projectId } = await s.t.projectWithProposals(client, [free, other])
      expect(
        (await s.t.call('POST', `projects/Createroom/${projectId}/${client.id}`, { token: other.token }))
          .status,
      ).toBe(404)
      const opened = await s.t.call('POST', `projects/Createroom/${projectId}/${other.id}`, {
        token: client.token,
      })
      expect(opened.status, opened.text).toBe(200)
      expect(
        (await s.t.call('POST', `projects/Createroom/${projectId}/${other.id}`, { token: client.token })).json
          .roomId,
      ).toBe(opened.json.roomId)
      expect(
        (await s.t.call('POST', `projects/Createroom/${projectId}/${client.id}`, { token: other.token })).json
          .roomId,
      ).toBe(opened.json.roomId)
      expect(
        (await s.t.call('POST', `projects/Createroom/${projectId}/${stranger.id}`, { token: client.token }))
          .status,
      ).toBe(404)
      expect((await s.t.say(opened.json.roomId, other.token, 'Is the roof pitched or flat?')).status).toBe(
        200,
      )
    })

    test('a room opens its newest page and pages backwards by `before`, oldest first within a page', async () => {
      const { roomId } = await s.t.contract(client, free)
      for (let i = 1; i <= 120; i++)
        expect((await s.t.say(roomId, i % 2 ? client.token : free.token, `message ${i}`)).status).toBe(200)
      const texts = (page: { data: Array<{ text: string; kind: string }> }) =>
        page.data.filter((m) => m.kind === 'text').map((m) => m.text)
      const newest = (await s.t.call('GET', `chat/${roomId}`, { token: client.token })).json
      expect(newest.data).toHaveLength(50)
      expect(texts(newest).at(0)).toBe('message 71')
      expect(texts(newest).at(-1)).toBe('message 120')
      const middle = (
        await s.t.call('GET', `chat/${roomId}?before=${newest.before}`, { token: client.token })
      ).json
      expect([texts(middle).at(0), texts(middle).at(-1)]).toEqual(['message 21', 'message 70'])
      const oldest = (
        await s.t.call('GET', `chat/${roomId}?before=${middle.before}&limit=100`, { token: client.token })
      ).json
      expect(texts(oldest)).toHaveLength(20)
      expect(oldest.data[0]).toMatchObject({ kind: 'system', event: 'proposalAccepted' })
      expect(oldest.before).toBeNull()
      expect(
        (await s.t.call('GET', `chat/${roomId}?limit=101`, { token: client.token })).json.errors,
      ).toHaveProperty('limit')
    })

    test("unread counts rise with the other member's messages and fall when read, in the room, the list and the icon", async () => {
      const reader = await s.t.user('client', 'Rita', 'Reader')
      const writer = await s.t.user('freelancer', 'Walt', 'Writer')
      const { roomId } = await s.t.contract(reader, writer)
      await s.t.call('POST', `chat/${roomId}/read`, { token: writer.token, body: {} })
      const icon = async () =>
        (await s.t.call('GET', 'chat/rooms/count', { token: reader.token })).json.unreadCount
      await s.t.call('POST', `chat/${roomId}/read`, { token: reader.token, body: {} })
      expect(await icon()).toBe(0)
      const sent = []
      for (const text of ['one', 'two', 'three'])
        sent.push((await s.t.say(roomId, writer.token, text)).json.id)
      expect(await icon()).toBe(1)
      expect(
        (await s.t.call('GET', `chat/${roomId}/count-unread`, { token: reader.token })).json.unreadCount,
      ).toBe(3)
      expect(
        (await s.t.call('GET', `chat/${roomId}/count-unread`, { token: writer.token })).json.unreadCount,
      ).toBe(0)
      const list = (await s.t.call('GET', 'chat/rooms/1', { token: reader.token })).json
      expect(list).toMatchObject({
        total: 1,
        page: 1,
        roomsWithUnread: 1,
        data: [
          {
            id: roomId,
            unreadCount: 3,
            other: { id: writer.id, name: 'Walt Writer' },
            lastMessage: { text: 'three', senderId: writer.id },
          },
        ],
      })

      const partly = await s.t.call('POST', `chat/${roomId}/read`, {
        token: reader.token,
        body: { upTo: sent[0] },
      })
      expect(partly.json).toEqual({ roomId, lastReadMessageId: sent[0], unreadCount: 2, roomsWithUnread: 1 })
      // Never backwards.
      expect(
        (await s.t.call('POST', `chat/${roomId}/read`, { token: reader.token, body: { upTo: 1 } })).json
          .lastReadMessageId,
      ).toBe(sent[0])
      expect((await s.t.call('POST', `chat/${roomId}/read`, { token: reader.token, body: {} })).json).toEqual(
        { roomId, lastReadMessageId: sent[2], unreadCount: 0, roomsWithUnread: 0 },
      )
      const page = (await s.t.call('GET', `chat/${roomId}`, { token: writer.token })).json
      expect([page.myLastReadMessageId, page.otherLastReadMessageId]).toEqual([sent[2], sent[2]])
    })

    test('the chat list is most recent first and paged', async () => {
      const busy = await s.t.user('client', 'Bea', 'Busy')
      const rooms = []
      const lancers = []
      for (let i = 0; i < 3; i++) {
        lancers.push(await s.t.user('freelancer', `F${i}`, 'Lancer'))
        rooms.push((await s.t.contract(busy, lancers[i])).roomId)
      }
      await s.t.say(rooms[0], busy.token, 'back to the first')
      const first = (await s.t.call('GET', 'chat/rooms/1?pageSize=2', { token: busy.token })).json
      expect(first.total).toBe(3)
      expect(first.data.map((r: { id: number }) => r.id)).toEqual([rooms[0], rooms[2]])
      // The two acceptances' system messages were the client's own: nothing unread, on every page.
      expect(first.roomsWithUnread).toBe(0)
      expect(
        (await s.t.call('GET', 'chat/rooms/2?pageSize=2', { token: busy.token })).json.data.map(
          (r: { id: number }) => r.id,
        ),
      ).toEqual([rooms[1]])
      // The totals come with the rows; a page past the end counts them apart.
      await s.t.say(rooms[2], lancers[2].token, 'a question')
      expect((await s.t.call('GET', 'chat/rooms/2?pageSize=2', { token: busy.token })).json).toMatchObject({
        total: 3,
        roomsWithUnread: 1,
      })
      expect((await s.t.call('GET', 'chat/rooms/9?pageSize=2', { token: busy.token })).json).toMatchObject({
        data: [],
        total: 3,
        roomsWithUnread: 1,
      })
      expect(
        (await s.t.call('GET', 'chat/rooms/1?pageSize=500', { token: busy.token })).json.errors,
      ).toHaveProperty('pageSize')
    })

    test('a retried send answers the stored message and stores nothing twice; the other member cannot reuse the id', async () => {
      const { roomId } = await s.t.contract(client, free)
      const id = s.t.clientId()
      const first = await s.t.say(roomId, client.token, 'Could you send the calculation report?', id)
      const again = await s.t.say(roomId, client.token, 'Could you send the calculation report?', id)
      const concurrent = await Promise.all(
        [1, 2, 3].map(() => s.t.say(roomId, client.token, 'Could you send the calculation report?', id)),
      )
      expect(first.status, first.text).toBe(200)
      expect([again, ...concurrent].map((r) => r.json.id)).toEqual([
        first.json.id,
        first.json.id,
        first.json.id,
        first.json.id,
      ])
      expect(
        (
          await s.database.db
            .selectFrom('chat_message')
            .select('id')
            .where('client_message_id', '=', id)
            .execute()
        ).length,
      ).toBe(1)
      const taken = await s.t.say(roomId, free.token, 'hijack', id)
      expect(taken.status).toBe(409)
      expect(taken.json.errors).toHaveProperty('clientMessageId')
    })

    test("only the two members read, post, mark read, count or see the other's card: everyone else gets 404, attachments included", async () => {
      const { roomId } = await s.t.contract(client, free)
      const sent = await s.t.sendForm(
        roomId,
        free.token,
        { clientMessageId: s.t.clientId(), text: 'The drawings' },
        [['plan.pdf', tinyPdf()]],
      )
      expect(sent.status, sent.text).toBe(200)
      const file = sent.json.attachments[0]
      expect((await s.t.raw('GET', file.url, { token: client.token })).status).toBe(200)
      expect((await s.t.raw('GET', file.url, { token: stranger.token })).status).toBe(404)
      const before = await count('chat_message')
      expect((await s.t.call('GET', `chat/${roomId}`, { token: stranger.token })).status).toBe(404)
      expect((await s.t.say(roomId, stranger.token, 'hello')).status).toBe(404)
      expect(
        (
          await s.t.sendForm(roomId, stranger.token, { clientMessageId: s.t.clientId(), text: 'x' }, [
            ['a.png', tinyPng()],
          ])
        ).status,
      ).toBe(404)
      expect(
        (await s.t.call('POST', `chat/${roomId}/read`, { token: stranger.token, body: {} })).status,
      ).toBe(404)
      expect((await s.t.call('GET', `chat/${roomId}/count-unread`, { token: stranger.token })).status).toBe(
        404,
      )
      expect((await s.t.call('GET', 'chat/999999', { token: client.token })).status).toBe(404)
      expect((await s.t.call('GET', `chat/user-info/${client.id}`, { token: stranger.token })).status).toBe(
        404,
      )
      expect((await s.t.call('GET', `chat/user-info/${client.id}`, { token: free.token })).json).toEqual({
        id: client.id,
        name: 'Clara Client',
        firstName: 'Clara',
        lastName: 'Client',
        imageUrl: null,
      })
      expect((await s.t.call('GET', `chat/${roomId}`)).status).toBe(401)
      expect(await count('chat_message')).toBe(before)
    })

    test('text and files of each docs/product.md §3 type; bad input is a 400 naming the field, and nothing is stored', async () => {
      const { roomId } = await s.t.contract(client, free)
      const both = await s.t.sendForm(roomId, client.token, { clientMessageId: s.t.clientId(), text: '' }, [
        ['site.png', tinyPng()],
        ['spec.pdf', tinyPdf()],
      ])
      expect(both.status, both.text).toBe(200)
      expect(
        both.json.attachments.map((a: { attachmentType: number; name: string }) => [
          a.name,
          a.attachmentType,
        ]),
      ).toEqual([
        ['site.png', 1],
        ['spec.pdf', 4],
      ])
      expect(both.json.text).toBe('')
      const links = await s.t.say(roomId, client.token, '<b>see</b> https://example.com')
      expect(links.json.text).toBe('<b>see</b> https://example.com')

      const messages = await count('chat_message')
      const files = await count('stored_file')
      const refused = [
        [await s.t.say(roomId, client.token, '   '), 'text'],
        [await s.t.say(roomId, client.token, 'x'.repeat(4001)), 'text'],
        [
          await s.t.call('POST', `chat/${roomId}`, { token: client.token, body: { text: 'no id' } }),
          'clientMessageId',
        ],
        [await s.t.say(roomId, client.token, 'bad id', 'a b'), 'clientMessageId'],
        [await s.t.sendForm(roomId, client.token, { clientMessageId: s.t.clientId(), text: '' }), 'text'],
        [
          await s.t.sendForm(
            roomId,
            client.token,
            { clientMessageId: s.t.clientId(), text: 'x'.repeat(4001) },
            [['a.png', tinyPng()]],
          ),
          'text',
        ],
        [
          await s.t.sendForm(roomId, client.token, { text: 'no id' }, [['a.png', tinyPng()]]),
          'clientMessageId',
        ],
        [
          await s.t.sendForm(roomId, client.token, { clientMessageId: s.t.clientId(), text: 'exe' }, [
            ['a.png', tinyPng()],
            ['tool.exe', Buffer.from('MZ')],
          ]),
          'files',
        ],
        [
          await s.t.sendForm(roomId, client.token, { clientMessageId: s.t.clientId(), text: 'fake' }, [
            ['photo.png', tinyPdf()],
          ]),
          'files',
        ],
        [
          await s.t.sendForm(roomId, client.token, { clientMessageId: s.t.clientId(), text: 'big' }, [
            ['big.png', Buffer.concat([tinyPng(), Buffer.alloc(900 * 1024)])],
          ]),
          'files',
        ],
        [
          await s.t.sendForm(
            roomId,
            client.token,
            { clientMessageId: s.t.clientId(), text: 'many' },
            Array.from({ length: 6 }, (_, i) => [`p${i}.png`, tinyPng()] as [string, Buffer]),
          ),
          'files',
        ],
      ] as const
      for (const [answer, field] of refused) {
        expect(answer.status, `${field}: ${JSON.stringify(answer.json)}`).toBe(400)
        expect(Object.keys(answer.json.errors)).toContain(field)
      }
      expect([await count('chat_message'), await count('stored_file')]).toEqual([messages, files])
    })

    test("the contract's installment events post system messages into its room", async () => {
      const c = await s.t.contract(client, free)
      const installment = c.installments[0].id
      // Funding is paying (modules/payments): the sandbox checkout confirms, then the installment is funded.
      expect((await fund(s.t.call, client, c.projectId, [installment])).session.status).toBe('succeeded')
      expect(
        (
          await s.t.call('POST', `projects/installments/${installment}/submit`, {
            token: free.token,
            body: { note: 'Report attached' },
          })
        ).status,
      ).toBe(200)
      expect(
        (
          await s.t.call('POST', `projects/installments/${installment}/approve`, {
            token: client.token,
            body: {},
          })
        ).status,
      ).toBe(200)
      // Approving releases the held money to the freelancer at once (modules/payments): paid follows.
      await s.t.api.jobs.outbox.drain()
      const page = (
        await s.t.call('GET', `chat/${c.roomId}`, {
          token: client.token,
          headers: { 'accept-language': 'de' },
        })
      ).json
      expect(page.data.map((m: { event: string }) => m.event)).toEqual([
        'proposalAccepted',
        'installmentFunded',
        'installmentSubmitted',
        'installmentApproved',
        'installmentPaid',
      ])
      expect(page.data[1].text).toContain('eingezahlt')
      // A retried delivery of the events posts nothing twice.
      await s.database.db
        .updateTable('outbox')
        .set({ status: 'pending', locked_until: null, run_after: new Date(0).toISOString() })
        .where('topic', '=', 'chat.event')
        .execute()
      await s.t.api.jobs.outbox.drain()
      expect((await s.t.call('GET', `chat/${c.roomId}`, { token: client.token })).json.data).toHaveLength(5)
    })

    test('a room whose contract is cancelled, or whose project went to someone else, is closed: sends are a 400 naming why, nothing is stored, the history stays', async () => {
      const hired = await s.t.user('freelancer', 'Hal', 'Hired')
      const passed = await s.t.user('freelancer', 'Pat', 'Passed')
      const { projectId, proposals } = await s.t.projectWithProposals(client, [hired, passed])
      const early = (
        await s.t.call('POST', `projects/Createroom/${projectId}/${passed.id}`, { token: client.token })
      ).json.roomId as number
      expect((await s.t.say(early, passed.token, 'Any question about the roof?')).status).toBe(200)
      expect((await s.t.call('GET', `chat/${early}`, { token: passed.token })).json.room.closed).toBeNull()
      const accepted = await s.t.call('POST', `projects/proposals/${proposals[0]}/accept/${projectId}`, {
        token: client.token,
      })
      expect(accepted.status, accepted.text).toBe(200)
      await s.t.api.jobs.outbox.drain()
      const roomId = accepted.json.roomId as number
      expect((await s.t.say(roomId, hired.token, 'Starting Monday')).status).toBe(200)
      // The project went to someone else: the proposer's room closes.
      expect((await s.t.call('GET', `chat/${early}`, { token: passed.token })).json.room.closed).toBe(
        'projectClosed',
      )
      const late = await s.t.say(early, passed.token, 'Still there?')
      expect(late.status).toBe(400)
      expect(late.json.errors.roomId[0]).toMatch(/closed/)

      const cancelled = await s.t.call('PUT', `projects/${projectId}/updatestate/cancelled`, {
        token: client.token,
      })
      expect(cancelled.status, cancelled.text).toBe(200)
      const messages = await count('chat_message')
      const files = await count('stored_file')
      for (const [token, other] of [
        [client.token, hired.id],
        [hired.token, client.id],
      ] as const) {
        const page = (await s.t.call('GET', `chat/${roomId}`, { token })).json
        expect(page.room).toMatchObject({ closed: 'contractCancelled', other: { id: other } })
        expect(page.data.map((m: { text: string }) => m.text)).toContain('Starting Monday')
        const refused = await s.t.say(roomId, token, 'One more thing')
        expect(refused.status).toBe(400)
        expect(refused.json).toMatchObject({
          title: 'Conversation Closed',
          errors: { roomId: ['This conversation is closed: the contract was cancelled'] },
        })
        const withFile = await s.t.sendForm(
          roomId,
          token,
          { clientMessageId: s.t.clientId(), text: 'the drawing' },
          [['drawing.pdf', tinyPdf()]],
        )
        expect(withFile.status).toBe(400)
        expect(withFile.json.errors).toHaveProperty('roomId')
      }
      expect([await count('chat_message'), await count('stored_file')]).toEqual([messages, files])
      expect((await s.t.call('GET', 'chat/rooms/1', { token: hired.token })).json.data[0]).toMatchObject({
        id: roomId,
        closed: 'contractCancelled',
      })
    })
  })
}
