import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useLiveServer } from '../../../tests/integration/live-server.ts'
import { makeClient, waitFor } from '../../../tests/support/realtime.ts'
import { projectsTestApi } from '../../../tests/support/modules/projects.ts'

// The notifications hub live, on the real server (startServer, without the web app) and the
// official client: only a project's client and proposers may join `project:{id}`; accepting a
// proposal stores the notifications and pushes, through the typed hub API, the alert and
// countNotify (with the unread count) to the freelancer and projectChanged to the project group.
for (const dialect of portableDialects) {
  describe(`notifications hub on ${dialect}`, () => {
    const live = useLiveServer(dialect, 'notify')
    const { call, connections } = live
    let users: ReturnType<typeof projectsTestApi>
    beforeAll(() => {
      users = projectsTestApi(live.running.database)
    })
    afterAll(async () => {
      await users?.close()
    })

    async function hub(token: string) {
      const { connection } = makeClient(`${live.base}/hubs/notifications`, 'WebSockets', { token })
      connections.push(connection)
      const got: [string, unknown][] = []
      for (const target of ['countNotify', 'ReceiveNotification', 'projectChanged'])
        connection.on(target, (arg: unknown) => got.push([target, arg]))
      await connection.start()
      return { connection, got }
    }

    test('only the client and proposers join project:{id}; accepting pushes the alert, countNotify and projectChanged', async () => {
      const [client, freelancer, outsider] = [
        await users.user('client'),
        await users.user('freelancer'),
        await users.user('freelancer'),
      ]
      const sub = await live.running.database.db
        .selectFrom('subcategory')
        .select('id')
        .where('slug', '=', 'structural-engineering')
        .executeTakeFirstOrThrow()
      const project = await call('POST', 'projects', client.token, {
        title: 'Foundation check for a garden studio',
        description:
          'Check the pad foundations of a small timber garden studio on clay soil and send the calculations.',
        subcategoryId: sub.id,
        budgetType: 'fixed',
        budgetMinor: 40000,
        currency: 'EUR',
        durationDays: 7,
        remote: true,
        publish: true,
      })
      const proposal = await call('POST', `projects/${project.id}/proposal`, freelancer.token, {
        coverLetter: 'I check foundations on clay soils often and can send the calculations this week.',
        bidMinor: 38000,
        durationDays: 5,
      })

      const [owner, proposer, stranger] = await Promise.all([
        hub(client.token),
        hub(freelancer.token),
        hub(outsider.token),
      ])
      await owner.connection.invoke('JoinGroup', `project:${project.id}`)
      await proposer.connection.invoke('joingroup', `project:${project.id}`)
      await expect(stranger.connection.invoke('JoinGroup', `project:${project.id}`)).rejects.toThrow(
        'You cannot join this group.',
      )
      await expect(owner.connection.invoke('JoinGroup', 'project:abc')).rejects.toThrow(
        'You cannot join this group.',
      )
      await expect(owner.connection.invoke('JoinGroup', `room:${project.id}`)).rejects.toThrow(
        'You cannot join this group.',
      )

      await call('POST', `projects/proposals/${proposal.id}/accept/${project.id}`, client.token)
      const changed = (h: { got: [string, unknown][] }) =>
        h.got.filter(([t]) => t === 'projectChanged').map(([, a]) => a)
      await waitFor(
        () =>
          changed(owner).length &&
          changed(proposer).length &&
          proposer.got.some(([t]) => t === 'countNotify'),
        15_000,
        'the pushes after the accept',
      )
      expect(changed(owner)).toContain(project.id)
      expect(proposer.got).toContainEqual([
        'ReceiveNotification',
        expect.objectContaining({
          title: 'Proposal accepted',
          isRead: false,
          type: 'Proposal',
          projectId: project.id,
        }),
      ])
      // The accept tells the proposer more than one thing, each delivery with its own countNotify:
      // once every delivery is done, the last count pushed is the count the API answers.
      await live.running.api.jobs.outbox.drain()
      const unread = (await call('GET', 'notifications/count', freelancer.token)).unreadCount
      const lastCount = () => proposer.got.filter(([t]) => t === 'countNotify').at(-1)?.[1]
      await waitFor(
        () => lastCount() === unread,
        15_000,
        `the last countNotify to be the unread count ${unread}`,
      )
      expect(stranger.got).toEqual([])
    }, 60_000)

    // Issue 15: a read in one tab lowers the count in the reader's other tabs. Every way of reading
    // (the plain path, the hub-style alias) goes through the service, which writes countNotify to
    // the outbox only when the count changed: a second read of the same one tells no one.
    test('a read sends countNotify with the new count to every tab of the reader, and to no one else', async () => {
      const [reader, other] = [await users.user('freelancer'), await users.user('client')]
      await live.running.api.services.notifications.record(
        live.running.database.db,
        [0, 1, 2].map((i) => ({
          userId: reader.id,
          source: `live-read:${i}`,
          messageKey: 'projects:notify.newComment',
          params: { title: `Pier ${i}` },
          type: 'Project' as const,
          projectId: 1,
        })),
      )
      const [tabA, tabB, bystander] = await Promise.all([
        hub(reader.token),
        hub(reader.token),
        hub(other.token),
      ])
      const [newest, second] = (await call('GET', 'notifications', reader.token)).data as { id: number }[]
      const counts = (h: { got: [string, unknown][] }) =>
        h.got.filter(([t]) => t === 'countNotify').map(([, n]) => n)

      await call('PUT', `notifications/${newest.id}/read`, reader.token)
      await waitFor(
        () => counts(tabA).length && counts(tabB).length,
        15_000,
        'countNotify after the first read',
      )
      await call('PUT', `notifications/${newest.id}/read`, reader.token)
      await call('PUT', `notificationHub/UpdateReadStatusForNotification/${second.id}`, reader.token)
      await waitFor(
        () => counts(tabA).length > 1 && counts(tabB).length > 1,
        15_000,
        'countNotify after the second read',
      )
      await live.running.api.jobs.outbox.drain()
      expect(counts(tabA)).toEqual([2, 1])
      expect(counts(tabB)).toEqual([2, 1])
      expect(bystander.got).toEqual([])
    }, 60_000)
  })
}
