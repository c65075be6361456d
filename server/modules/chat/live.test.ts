import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { portableDialects } from '../../../tests/integration/databases.ts'
import { useLiveServer } from '../../../tests/integration/live-server.ts'
import {
  makeClient,
  sleep,
  usedTransport,
  waitFor,
  type TransportChoice,
} from '../../../tests/support/realtime.ts'
import { chatTestApi } from '../../../tests/support/modules/chat.ts'

// The chat hub live, on the real server (startServer, without the web app) and the official
// @microsoft/signalr client over each of the three transports: only the room's members join
// `room:{id}`; a message sent through the API reaches the other member's page (ReceiveMessage) and
// both members' counts (countChat); typing and read receipts are relayed to the other side only.
const transports: TransportChoice[] = ['WebSockets', 'ServerSentEvents', 'LongPolling']

for (const dialect of portableDialects) {
  describe(`chat hub on ${dialect}`, () => {
    const live = useLiveServer(dialect, 'chat')
    const { call, connections } = live
    let t: ReturnType<typeof chatTestApi>
    beforeAll(() => {
      t = chatTestApi(live.running.database)
    })
    afterAll(async () => {
      await t?.close()
    })

    async function hub(token: string, transport: TransportChoice) {
      const { connection, logs } = makeClient(`${live.base}/hubs/chat`, transport, { token })
      connections.push(connection)
      const got: [string, unknown][] = []
      for (const target of ['ReceiveMessage', 'typing', 'read', 'countChat'])
        connection.on(target, (arg: unknown) => got.push([target, arg]))
      await connection.start()
      expect(usedTransport(logs)).toBe(transport)
      const of = (target: string) => got.filter(([n]) => n === target).map(([, a]) => a)
      // The contract's system message (proposal accepted) is pushed by the outbox after its commit
      // and may reach a hub that connected later: the test follows the members' own messages.
      const typed = () => of('ReceiveMessage').filter((m) => (m as { kind: string }).kind === 'text')
      return { connection, got, of, typed }
    }

    for (const transport of transports) {
      test(`${transport}: members join the room, messages, typing and reads go live, strangers are refused`, async () => {
        const [client, free, stranger] = [
          await t.user('client', 'Clara', 'Client'),
          await t.user('freelancer', 'Fran', 'One'),
          await t.user('freelancer', 'Otto', 'Other'),
        ]
        const { roomId } = await t.contract(client, free)
        await call('POST', `chat/${roomId}/read`, free.token, {})
        const [mine, theirs, outsider] = await Promise.all([
          hub(client.token, transport),
          hub(free.token, transport),
          hub(stranger.token, transport),
        ])
        await mine.connection.invoke('JoinGroup', `room:${roomId}`)
        await theirs.connection.invoke('JoinGroup', `room:${roomId}`)
        await expect(outsider.connection.invoke('JoinGroup', `room:${roomId}`)).rejects.toThrow(
          'You cannot join this group.',
        )
        await expect(outsider.connection.invoke('JoinGroup', 'room:0')).rejects.toThrow(
          'You cannot join this group.',
        )
        await expect(outsider.connection.invoke('Typing', roomId)).rejects.toThrow('Join the room first.')

        const sent = await call('POST', `chat/${roomId}`, client.token, {
          clientMessageId: `live-${transport}`,
          text: 'Are the loads from the roof final?',
        })
        // Counts are pushed after their write commits (the outbox): the 0 of the read above may still
        // arrive after the hub connected, so the test waits for the message's count, the last one.
        await waitFor(
          () => theirs.typed().length && mine.typed().length && theirs.of('countChat').at(-1) === 1,
          10_000,
          'the message and the count',
        )
        expect(theirs.typed()).toEqual([sent])
        expect(mine.typed()).toEqual([sent])
        // A count is the number of rooms with unread messages, pushed at each change: never more than 1 here.
        expect(theirs.of('countChat').every((n) => n === 0 || n === 1)).toBe(true)

        await mine.connection.invoke('Typing', roomId)
        await waitFor(() => theirs.of('typing').length, 10_000, 'typing')
        expect(theirs.of('typing')).toEqual([{ roomId, userId: client.id }])

        await call('POST', `chat/${roomId}/read`, free.token, {})
        // Wait for the count that follows the read: a count sent for the message may still be on its
        // way on long polling, so the second count seen is not always the read's.
        // The receipt of the read before the hubs connected is pushed by the outbox after its commit
        // too, and may reach the room after the join (seen under load): the test follows this read's.
        type Read = { roomId: number; userId: number; lastReadMessageId: number }
        const reads = () => mine.of('read') as Read[]
        await waitFor(
          () => reads().some((r) => r.lastReadMessageId === sent.id) && theirs.of('countChat').at(-1) === 0,
          10_000,
          'the read receipt and the count back to 0',
        )
        expect(reads().at(-1)).toEqual({ roomId, userId: free.id, lastReadMessageId: sent.id })
        expect(
          reads().every((r) => r.roomId === roomId && r.userId === free.id && r.lastReadMessageId <= sent.id),
        ).toBe(true)

        // Leaving the group stops the room's messages; the counts still come.
        const counted = theirs.of('countChat').length
        await theirs.connection.invoke('LeaveGroup', `room:${roomId}`)
        await call('POST', `chat/${roomId}`, client.token, {
          clientMessageId: `live-${transport}-2`,
          text: 'Still there?',
        })
        await waitFor(() => theirs.of('countChat').length > counted, 10_000, 'the count after leaving')
        await sleep(100)
        expect(theirs.typed()).toHaveLength(1)
        expect(mine.of('typing')).toEqual([])
        expect(outsider.got).toEqual([])
      }, 60_000)
    }
  })
}
