// Keep-alive, poll timeout and silence detection with the official client; short timeouts keep this fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  TRANSPORTS,
  deferred,
  makeClient,
  sleep,
  startHarness,
  waitFor,
} from '../../tests/support/realtime.ts'
import type { Harness, TransportChoice } from '../../tests/support/realtime.ts'

describe.concurrent.each(TRANSPORTS)('keep-alive and timeouts over %s', (transport: TransportChoice) => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ timeouts: { keepAliveMs: 100, clientTimeoutMs: 800, pollTimeoutMs: 200 } })
  })
  afterAll(async () => {
    await h.close()
  })

  it('server pings keep an idle connection alive (long polls re-poll after the poll timeout)', async () => {
    const client = makeClient(h.url, transport, { serverTimeoutMs: 800, keepAliveMs: 100 })
    await client.connection.start()
    const id = client.connection.connectionId
    const outcome = await Promise.race([
      client.closed.then((e) => `closed: ${e}`),
      sleep(2000).then(() => 'alive'),
    ])
    expect(outcome).toBe('alive')
    expect(client.connection.connectionId).toBe(id)
    expect(await client.connection.invoke('echo', 'awake')).toBe('awake')
    await client.connection.stop()
  })
})

// Long polling has no pings or client timeouts (the poll itself is the keep-alive), so these apply to WS and SSE.
describe.concurrent.each(['WebSockets', 'ServerSentEvents', 'auto'] as TransportChoice[])(
  'silence detection over %s',
  (transport) => {
    it('the client gives up when the server never pings', async () => {
      const h = await startHarness({ timeouts: { keepAliveMs: 0, clientTimeoutMs: 0 } })
      try {
        const client = makeClient(h.url, transport, { serverTimeoutMs: 400 })
        await client.connection.start()
        const error = await client.closed
        expect(String(error)).toContain('Server timeout elapsed without receiving a message from the server.')
      } finally {
        await h.close()
      }
    })

    it('the server drops a silent client with Close{allowReconnect}, and the client reconnects', async () => {
      const h = await startHarness({ timeouts: { keepAliveMs: 0, clientTimeoutMs: 300 } })
      try {
        // Without server pings the client pings once after the handshake and then stays silent.
        const client = makeClient(h.url, transport, { serverTimeoutMs: 10_000, reconnectDelays: [0, 0, 0] })
        await client.connection.start()
        const firstId = client.connection.connectionId
        const reconnecting = deferred<Error | undefined>()
        const reconnected = deferred<string | undefined>()
        client.connection.onreconnecting((e) => reconnecting.resolve(e))
        client.connection.onreconnected((id) => reconnected.resolve(id))
        expect(String(await reconnecting.promise)).toContain(
          'Server returned an error on close: Connection closed with an error.',
        )
        const newId = await reconnected.promise
        expect(newId).not.toBe(firstId)
        await client.connection.stop()
        await waitFor(() => h.state.disconnected.includes(firstId!), 2000, 'first connection disconnected')
      } finally {
        await h.close()
      }
    })
  },
)
