import { beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { projectWithProposal, useProjects } from '../../../tests/support/modules/projects.ts'

// The notifications API on both databases: paging by 10, the unread count, marking read, scoping
// to the caller (plain and hub-style paths), texts in the reader's language, and notifications
// produced by the projects outbox exactly once even when a delivery is retried.
for (const dialect of portableDialects) {
  describe(`notifications on ${dialect}`, () => {
    const s = useProjects(dialect)
    type U = Awaited<ReturnType<typeof s.t.user>>
    let client: U, free: U, other: U

    beforeAll(async () => {
      client = await s.t.user('client', 'Clara', 'Client')
      free = await s.t.user('freelancer', 'Fran', 'One')
      other = await s.t.user('freelancer', 'Otto', 'Other')
    }, 60_000)

    const rowsOf = async (userId: number) =>
      await s.database.db
        .selectFrom('notification')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute()
    const service = () => s.t.api.services.notifications

    async function acceptedProject() {
      const { projectId, proposalId } = await projectWithProposal(
        s.t,
        s.database,
        client,
        free,
        'Load calculations for a timber roof',
      )
      const accepted = await s.t.call('POST', `projects/proposals/${proposalId}/accept/${projectId}`, {
        token: client.token,
      })
      expect(accepted.status, accepted.text).toBe(200)
      await s.t.api.jobs.outbox.drain()
      return projectId
    }

    test('accepting a proposal stores notifications for both parties, once, even when the outbox delivery is retried', async () => {
      const projectId = await acceptedProject()
      const mine = await rowsOf(free.id)
      // One event, one notification (issue 39 item 6): the acceptance, which also starts the contract.
      expect(mine.map((r) => r.message_key)).toEqual(['projects:notify.proposalAccepted'])
      expect(mine.every((r) => r.project_id === projectId && r.is_read === 0)).toBe(true)
      expect((await rowsOf(client.id)).map((r) => r.message_key)).toEqual([
        'projects:notify.proposalReceivedFrom',
      ])

      // A retry (the worker crashed after storing, before marking the row done) stores nothing new.
      const before = (
        await s.database.db
          .selectFrom('notification')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
      const retried = await s.database.db
        .updateTable('outbox')
        .set({ status: 'pending', locked_until: null, run_after: new Date(0).toISOString() })
        .where('topic', '=', 'projects.notify')
        .executeTakeFirst()
      expect(Number(retried.numUpdatedRows)).toBeGreaterThanOrEqual(2)
      expect(await s.t.api.jobs.outbox.drain()).toBeGreaterThanOrEqual(2)
      const after = (
        await s.database.db
          .selectFrom('notification')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
      expect(Number(after)).toBe(Number(before))
      const outbox = await s.database.db
        .selectFrom('outbox')
        .select(['status', 'last_error'])
        .where('topic', '=', 'projects.notify')
        .execute()
      expect(outbox.every((o) => o.status === 'done' && o.last_error === null)).toBe(true)

      const list = await s.t.call('GET', 'notifications', { token: free.token })
      expect(list.status).toBe(200)
      const accepted = list.json.data.find((n: { title: string }) => n.title === 'Proposal accepted')
      expect(accepted).toMatchObject({ isRead: false, type: 'Proposal', projectId, roomId: null })
      expect(accepted.content).toContain('Load calculations for a timber roof')
      expect(Date.parse(accepted.createdDate)).not.toBeNaN()
    })

    test('a notification names the person who took the step, as readers see them now', async () => {
      await acceptedProject()
      const bell = async (lang: string) =>
        (await (await s.t.raw('GET', `notifications?lang=${lang}`, { token: client.token })).json())
          .data as Array<{
          content: string
          senderImage: string | null
        }>
      const received = (await bell('en')).find((n) => n.content.includes('sent a proposal'))
      expect(received?.content).toBe('Fran One sent a proposal for “Load calculations for a timber roof”.')
      expect((await bell('ru')).map((n) => n.content)).toContain(
        'Fran One: новое предложение по проекту «Load calculations for a timber roof».',
      )
      // Once the account is erased, the stored notification keeps no name of theirs.
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Deleted' })
        .where('id', '=', free.id)
        .execute()
      expect((await bell('en')).map((n) => n.content)).toContain(
        'Deleted user sent a proposal for “Load calculations for a timber roof”.',
      )
      await s.database.db
        .updateTable('app_user')
        .set({ status: 'Active' })
        .where('id', '=', free.id)
        .execute()
    })

    test("texts are rendered in the reader's language", async () => {
      const de = await s.t.raw('GET', 'notifications', {
        token: free.token,
        headers: { 'accept-language': 'de' },
      })
      const ru = await s.t.raw('GET', 'notifications?lang=ru', { token: free.token })
      const en = (await s.t.call('GET', 'notifications', { token: free.token })).json.data[0]
      const [deFirst, ruFirst] = [(await de.json()).data[0], (await ru.json()).data[0]]
      expect(deFirst.id).toBe(en.id)
      expect(deFirst.title).not.toBe(en.title)
      expect(ruFirst.title).toMatch(/[А-Яа-я]/)
    })

    test('lists 10 at a time, newest first, from the offset `hand`; bad hand is a 400 naming it', async () => {
      await service().record(
        s.database.db,
        Array.from({ length: 23 }, (_, i) => ({
          userId: other.id,
          source: `test:${i}`,
          messageKey: 'projects:notify.newComment',
          params: { title: `Bridge ${i}` },
          type: 'Project' as const,
          projectId: 1,
        })),
      )
      const pages = [] as { id: number; content: string }[][]
      for (const hand of [0, 10, 20, 30]) {
        const r = await s.t.call('GET', `notifications?hand=${hand}`, { token: other.token })
        expect(r.status).toBe(200)
        pages.push(r.json.data)
      }
      expect(pages.map((p) => p.length)).toEqual([10, 10, 3, 0])
      const ids = pages.flat().map((n) => n.id)
      expect(ids).toEqual([...ids].sort((a, b) => b - a))
      expect(new Set(ids).size).toBe(23)
      expect(pages[0][0].content).toContain('Bridge 22')
      const bad = await s.t.call('GET', 'notifications?hand=-1', { token: other.token })
      expect(bad.status).toBe(400)
      expect(Object.keys(bad.json.errors)).toEqual(['hand'])
      expect((await s.t.call('GET', 'notifications')).status).toBe(401)
    })

    test("the unread count falls when one is read; reading is the owner's alone", async () => {
      const count = async (u: U) => {
        const unread = (await s.t.call('GET', 'notifications/count', { token: u.token })).json.unreadCount
        // Every page of the list carries the same count: the bell's one call.
        const page = await s.t.call('GET', 'notifications?hand=10', { token: u.token })
        expect(page.json.unreadCount).toBe(unread)
        return unread as number
      }
      const start = await count(other)
      expect(start).toBe(23)
      const [newest] = (await s.t.call('GET', 'notifications', { token: other.token })).json.data
      // Someone else's notification: not found, and it stays unread.
      expect((await s.t.call('PUT', `notifications/${newest.id}/read`, { token: free.token })).status).toBe(
        404,
      )
      expect(
        (
          await s.t.call('PUT', `notificationHub/UpdateReadStatusForNotification/${newest.id}`, {
            token: free.token,
          })
        ).status,
      ).toBe(404)
      expect(await count(other)).toBe(start)
      const read = await s.t.call('PUT', `notifications/${newest.id}/read`, { token: other.token })
      expect(read.status).toBe(200)
      expect(read.json).toMatchObject({ id: newest.id, isRead: true })
      expect(await count(other)).toBe(start - 1)
      // Reading again changes nothing.
      expect(
        (await s.t.call('PUT', `notifications/${newest.id}/read`, { token: other.token })).json.isRead,
      ).toBe(true)
      expect(await count(other)).toBe(start - 1)
      const second = (await s.t.call('GET', 'notifications', { token: other.token })).json.data[1]
      expect(
        (
          await s.t.call('PUT', `notificationHub/UpdateReadStatusForNotification/${second.id}`, {
            token: other.token,
          })
        ).json.isRead,
      ).toBe(true)
      expect(await count(other)).toBe(start - 2)
      expect(
        (await s.t.call('PUT', 'notifications/abc/read', { token: other.token })).json.errors.id,
      ).toBeDefined()
    })

    test("the hub-style paths answer only for the caller's own id", async () => {
      const own = await s.t.call('GET', `notificationHub/notifications/${other.id}?hand=20`, {
        token: other.token,
      })
      expect(own.status).toBe(200)
      expect(own.json.data).toHaveLength(3)
      expect(
        (await s.t.call('GET', `notificationHub/unreadNotifications/${other.id}`, { token: other.token }))
          .json,
      ).toEqual({ unreadCount: 21 })
      expect(
        (await s.t.call('GET', `notificationHub/notifications/${other.id}`, { token: free.token })).status,
      ).toBe(403)
      expect(
        (await s.t.call('GET', `notificationHub/unreadNotifications/${other.id}`, { token: free.token }))
          .status,
      ).toBe(403)
    })

    test("'Mark all as read' marks the caller's own notifications only, tells their tabs once, and again changes nothing", async () => {
      const count = async (u: U) =>
        (await s.t.call('GET', 'notifications/count', { token: u.token })).json.unreadCount as number
      const counts = () =>
        s.database.db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('topic', '=', 'notifications.count')
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n))
      await acceptedProject()
      const [otherBefore, freeBefore, toldBefore] = [await count(other), await count(free), await counts()]
      expect(otherBefore).toBeGreaterThan(0)
      expect(freeBefore).toBeGreaterThan(0)
      const all = await s.t.call('PUT', 'notifications/read', { token: free.token })
      expect(all.status, all.text).toBe(200)
      expect(all.json).toEqual({ marked: freeBefore, unreadCount: 0 })
      expect(await count(free)).toBe(0)
      expect(await count(other)).toBe(otherBefore)
      expect(await counts()).toBe(toldBefore + 1)
      const again = await s.t.call('PUT', 'notifications/read', { token: free.token })
      expect(again.json).toEqual({ marked: 0, unreadCount: 0 })
      expect(await counts()).toBe(toldBefore + 1)
      expect((await s.t.call('PUT', 'notifications/read')).status).toBe(401)
    })
  })
}
