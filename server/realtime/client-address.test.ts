import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientAddress, trustedProxies } from '../http/client-address.ts'
import { createHubServer, type HubServer } from './index.ts'
import { makeClient, TRANSPORTS } from '../../tests/support/realtime.ts'

// A hub sees the client's address as the rest of the server does (TRUST_PROXY, decision 082): the
// address a trusted proxy forwarded, on every transport, kept for the connection's life.

let http: Server
let hubs: HubServer
let base: string
beforeAll(async () => {
  const trusted = trustedProxies(['127.0.0.1', '::1'])
  hubs = createHubServer({
    hubs: [{ name: 'who', methods: { address: (ctx) => ctx.address } }],
    authenticate: async () => null,
    clientAddress: (req) => clientAddress(req, trusted),
  })
  http = createServer((req, res) => {
    if (!hubs.handleRequest(req, res)) res.writeHead(404).end()
  })
  http.on('upgrade', (req, socket, head) => hubs.handleUpgrade(req, socket, head) || socket.destroy())
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
})
afterAll(async () => {
  await hubs.close()
  http.closeAllConnections()
  await new Promise<void>((r) => http.close(() => r()))
})

describe('the address a hub connection sees', () => {
  it.each(TRANSPORTS)('is the one a trusted proxy forwarded (%s)', async (transport) => {
    const client = makeClient(`${base}/hubs/who`, transport, {
      headers: { 'x-forwarded-for': '192.0.2.1, 198.51.100.23' },
    })
    await client.connection.start()
    try {
      expect(await client.connection.invoke('address')).toBe('198.51.100.23')
    } finally {
      await client.connection.stop()
    }
  })

  it('is the socket’s without a forwarded header', async () => {
    const client = makeClient(`${base}/hubs/who`, 'LongPolling')
    await client.connection.start()
    try {
      expect(await client.connection.invoke('address')).toBe('127.0.0.1')
    } finally {
      await client.connection.stop()
    }
  })
})
