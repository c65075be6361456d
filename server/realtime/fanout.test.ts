// Fan-out writes one shared record to many connections: WebSockets get the same pre-built frame,
// SSE and long polling the same text. Every client must still see whole, identical records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { SharedRecord } from './shared-record.ts'
import { bigPayload, makeClient, startHarness, waitFor } from '../../tests/support/realtime.ts'
import type { Harness } from '../../tests/support/realtime.ts'

describe('fan-out of one record to many connections', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(async () => {
    await h.close()
  })

  it('builds one frame per record: header and payload in one buffer, any length', () => {
    for (const size of [10, 200, 70_000]) {
      const text = `{"type":1,"target":"t","arguments":["${'é'.repeat(size)}"]}\x1e`
      const record = new SharedRecord(text)
      const [frame] = record.wsFrame()!
      expect(record.wsFrame()![0]).toBe(frame)
      const payload = Buffer.from(text)
      expect(frame[0]).toBe(0x81)
      expect(frame.subarray(frame.length - payload.length).equals(payload)).toBe(true)
    }
  })

  it('raw WebSocket clients and official clients on every transport get identical whole records', async () => {
    const raw = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const ws = new WebSocket(h.url.replace('http', 'ws'))
        const frames: { text: string; binary: boolean }[] = []
        ws.on('message', (data: Buffer, binary: boolean) => frames.push({ text: data.toString(), binary }))
        await new Promise((resolve) => ws.once('open', resolve))
        ws.send('{"protocol":"json","version":1}\x1e')
        await waitFor(() => frames.length, 2000, 'handshake')
        return { ws, frames }
      }),
    )
    const official = ['WebSockets', 'ServerSentEvents', 'LongPolling'] as const
    const clients = official.map((t) => makeClient(h.url, t))
    const got: string[][] = clients.map(() => [])
    clients.forEach((c, i) => c.connection.on('note', (s: string) => got[i].push(s)))
    await Promise.all(clients.map((c) => c.connection.start()))
    const big = bigPayload(200_000)
    for (const text of ['one', big, 'three']) await h.hub.get('chat').toAll().send('note', text)
    const records = (r: (typeof raw)[number]) => r.frames.flatMap((f) => f.text.split('\x1e').slice(0, -1))
    await waitFor(
      () => got.every((g) => g.length === 3) && raw.every((r) => records(r).length === 4),
      5000,
      'all deliveries',
    )
    for (const g of got) expect(g).toEqual(['one', big, 'three'])
    for (const r of raw) {
      // Text frames of whole records only. The three sends came in one event-loop turn: the first
      // went out at once, the other two together in one frame at the end of the turn.
      expect(r.frames.every((f) => !f.binary && f.text.endsWith('\x1e'))).toBe(true)
      expect(r.frames).toHaveLength(3)
      expect(
        records(r)
          .slice(1)
          .map((t) => JSON.parse(t).arguments[0]),
      ).toEqual(['one', big, 'three'])
      r.ws.close()
    }
    expect(raw[1].frames).toEqual(raw[0].frames)
    await Promise.all(clients.map((c) => c.connection.stop()))
  })
})
