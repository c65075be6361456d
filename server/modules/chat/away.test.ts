import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { linkIn, startSmtpServer } from '../../../tests/support/smtp.ts'
import { AWAY_ALERT_MS, AWAY_EMAIL_MS } from './store.ts'
import { useChat } from '../../../tests/support/modules/chat.ts'

// Away members (issue 16 item 6, decision 150): one bell notification per room until they read it,
// and one email if they stay away, never one per message; both through the outbox, by the real
// SMTP server of tests/support. Time is moved on by making the delayed outbox rows due.
for (const dialect of portableDialects) {
  describe(`away members on ${dialect}`, () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    beforeAll(async () => {
      smtp = await startSmtpServer()
    })
    afterAll(() => smtp?.close())
    const s = useChat(dialect, () => ({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://workneer.example' }))

    /** Makes the delayed away rows due (as if `ms` had passed) and delivers everything. */
    async function later(ms: number) {
      const due = new Date(Date.now() + ms + 1000).toISOString()
      await s.database.db
        .updateTable('outbox')
        .set({ run_after: new Date(0).toISOString() })
        .where('status', '=', 'pending')
        .where('run_after', '<=', due)
        .execute()
      await s.t.api.jobs.outbox.drain()
      await s.t.api.jobs.outbox.drain() // what the deliveries wrote (the email itself)
    }
    // The chat's own mails: a contract's steps are mailed as notices of their own (decision 329).
    const chatMails = (...emails: string[]) =>
      smtp.mails.filter(
        (m) => emails.some((e) => m.to.includes(e)) && m.subject.startsWith('New messages from'),
      )
    const alerts = async (userId: number) =>
      s.database.db
        .selectFrom('notification')
        .select(['type', 'room_id', 'is_read', 'message_key'])
        .where('user_id', '=', userId)
        .where('type', '=', 'Chat')
        .execute()

    test('one alert and one email per unread run, none once read, and again after reading', async () => {
      const client = await s.t.user('client', 'Clara', 'Client')
      const free = await s.t.user('freelancer', 'Fran', 'Away')
      const { roomId } = await s.t.contract(client, free)
      await s.t.call('POST', `chat/${roomId}/read`, { token: free.token, body: {} })
      await later(AWAY_EMAIL_MS) // the acceptance's own system message, read already: nothing
      expect(await alerts(free.id)).toEqual([])
      const mailsBefore = chatMails(free.email).length

      for (const text of ['First question', 'Second question', 'Third question'])
        expect((await s.t.say(roomId, client.token, text)).status).toBe(200)
      await later(AWAY_ALERT_MS)
      expect(await alerts(free.id)).toEqual([
        { type: 'Chat', room_id: roomId, is_read: 0, message_key: 'chat-events:notify.newMessage' },
      ])
      const bell = (await s.t.call('GET', 'notifications', { token: free.token })).json.data[0]
      expect(bell).toMatchObject({ title: 'New message from Clara Client', roomId, type: 'Chat' })
      expect(chatMails(free.email).length).toBe(mailsBefore)

      await later(AWAY_EMAIL_MS)
      const mail = await smtp.waitFor(free.email, (m) => m.subject.includes('Clara Client'))
      expect(linkIn(mail, '/chats/')).toBe(`https://workneer.example/chats/${roomId}`)
      expect(linkIn(mail, '/emails/stop/')).toMatch(/\/stop\/\d+\/chat\/[\w-]{43}$/)
      // More messages while away: nothing more.
      await s.t.say(roomId, client.token, 'Fourth question')
      await later(AWAY_EMAIL_MS)
      expect(await alerts(free.id)).toHaveLength(1)
      expect(chatMails(free.email)).toHaveLength(1)

      // Reading the room marks its alert read and starts a new run.
      await s.t.call('POST', `chat/${roomId}/read`, { token: free.token, body: {} })
      expect((await alerts(free.id)).map((a) => a.is_read)).toEqual([1])
      await s.t.say(roomId, client.token, 'One more thing')
      await later(AWAY_EMAIL_MS)
      expect(await alerts(free.id)).toHaveLength(2)
      expect(chatMails(free.email)).toHaveLength(2)
      // The sender is never alerted about their own messages.
      expect(await alerts(client.id)).toEqual([])
    })

    test("the contract's events in the chat carry their own notification: they start no alert or email", async () => {
      const client = await s.t.user('client', 'Cass', 'Client')
      const free = await s.t.user('freelancer', 'Fern', 'Busy')
      const { roomId } = await s.t.contract(client, free)
      await later(AWAY_EMAIL_MS) // the acceptance's system message, unread by both
      expect(await alerts(free.id)).toEqual([])
      expect(await alerts(client.id)).toEqual([])
      expect(chatMails(free.email, client.email)).toEqual([])
      // A person's message in the same unread run still alerts.
      await s.t.say(roomId, client.token, 'Welcome aboard')
      await later(AWAY_ALERT_MS)
      expect(await alerts(free.id)).toHaveLength(1)
    })

    test('a member who reads before the delay gets neither alert nor email', async () => {
      const client = await s.t.user('client', 'Cleo', 'Client')
      const free = await s.t.user('freelancer', 'Finn', 'Present')
      const { roomId } = await s.t.contract(client, free)
      await s.t.say(roomId, client.token, 'Quick one')
      await s.t.call('POST', `chat/${roomId}/read`, { token: free.token, body: {} })
      await later(AWAY_EMAIL_MS)
      expect(await alerts(free.id)).toEqual([])
      expect(chatMails(free.email)).toEqual([])
    })

    test('a member who turned chat mails off gets the alert and no email', async () => {
      const client = await s.t.user('client', 'Cora', 'Client')
      const free = await s.t.user('freelancer', 'Faye', 'Quiet')
      const { roomId } = await s.t.contract(client, free)
      const off = await s.t.call('PUT', 'notifications/preferences', {
        token: free.token,
        body: { preferences: [{ kind: 'chat', site: true, email: false }] },
      })
      expect(off.status, off.text).toBe(200)
      await s.t.say(roomId, client.token, 'Are you there?')
      await later(AWAY_EMAIL_MS)
      expect(await alerts(free.id)).toHaveLength(1)
      expect(chatMails(free.email)).toEqual([])
    })
  })
}
