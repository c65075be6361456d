import { describe, expect, test } from 'vitest'
import type { Hubs } from '#server/hubs.ts'
import { makeClient } from '../support/realtime.ts'
import { dialects } from '../integration/databases.ts'
import { useLiveServer } from '../integration/live-server.ts'
import { buildWorld, people, type World, type Who } from './world.ts'

// Issue 19 item 1, the hubs (decision 256): every kind of group a module lets browsers join
// (JoinGroup) is tried by every person of the world on the real server over WebSockets, with the
// world's object and with ids that are not one. Only the people written here get in; a new kind
// of group without a row fails the test, naming it.
const groupRows: Record<string, { id: (w: World) => number; members: Who[] }> = {
  // A chat room: its two members (decision 150).
  'chat/room': { id: (w) => w.ids.roomId, members: ['client', 'freelancer'] },
  // A project: its client and the freelancers who proposed on it.
  'notifications/project': {
    id: (w) => w.ids.openProjectId,
    members: ['client', 'freelancer', 'freelancer2'],
  },
}
const notIds = ['0', '-1', '01', '1.0', '99999999999', 'abc', '1 OR 1=1', '', ' 1', '1\u0000']

for (const dialect of dialects) {
  describe(`hub groups on ${dialect}`, () => {
    const live = useLiveServer(dialect, 'secgroups')

    test('every kind of group lets in its members only', { timeout: 120_000 }, async () => {
      const world = await buildWorld(
        live.running.database,
        `groups${dialect}`,
        dialect === 'sqlite' ? 66 : 67,
      )
      try {
        // The kinds every module registers, read through the same door the server uses.
        const kinds: string[] = []
        world.t.api.attachHubs({} as Hubs, (hub, kind) => void kinds.push(`${hub}/${kind}`))
        expect(
          kinds.filter((k) => !groupRows[k]),
          'group kinds without a row in tests/security/hub-groups.test.ts',
        ).toEqual([])

        const failures: string[] = []
        let tried = 0
        for (const hub of ['chat', 'notifications']) {
          // A visitor has no connection at all.
          const visitor = await fetch(`${live.base}/hubs/${hub}/negotiate?negotiateVersion=1`, {
            method: 'POST',
          })
          expect(visitor.status, `${hub} negotiate as a visitor`).toBe(401)
          await visitor.body?.cancel()
          for (const who of people) {
            const { connection } = makeClient(`${live.base}/hubs/${hub}`, 'WebSockets', {
              token: world.users[who].token,
            })
            live.connections.push(connection)
            await connection.start()
            const join = async (group: string, allowed: boolean) => {
              tried += 1
              const joined = await connection.invoke('JoinGroup', group).then(
                () => true,
                () => false,
              )
              if (joined !== allowed)
                failures.push(
                  `${who} joining ${hub} ${JSON.stringify(group)}: ${joined ? 'let in' : 'refused'}`,
                )
            }
            for (const [key, row] of Object.entries(groupRows).filter(([k]) => k.startsWith(`${hub}/`))) {
              const kind = key.split('/')[1]
              await join(`${kind}:${row.id(world)}`, row.members.includes(who))
              // Another object of the kind (the second client's project, a room of no one's).
              await join(`${kind}:${world.ids.client2ProjectId + 1000}`, false)
              for (const id of notIds) await join(`${kind}:${id}`, false)
            }
            for (const group of [
              'user:1',
              `user:${world.users[who].id}`,
              'admin:1',
              'room',
              ':1',
              'x'.repeat(300),
              `room:${world.ids.roomId}`.toUpperCase(),
            ])
              await join(group, false)
            await connection.stop()
          }
        }
        console.log(
          `hub groups on ${dialect}: ${tried} joins tried by ${people.length} people over ${new Set(kinds).size} kinds of group`,
        )
        expect(failures, failures.join('\n')).toEqual([])
      } finally {
        await world.t.close()
      }
    })
  })
}
