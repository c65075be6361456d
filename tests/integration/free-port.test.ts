import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { freePort, outgoingPorts } from '../support/server-process.ts'

describe('freePort', () => {
  it('never hands out a port twice, even when the system offers it again once it is free', async () => {
    // The system's choice, made to repeat itself as it may once a restarting server lets a port go.
    const offers = [41_001, 41_001, 41_002, 41_001, 41_002, 41_003]
    const pick = async () => offers.shift()!
    expect([await freePort(pick), await freePort(pick), await freePort(pick)]).toEqual([
      41_001, 41_002, 41_003,
    ])
  })

  it('gives a port nothing listens on', async () => {
    const port = await freePort()
    const server = net.createServer()
    await new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(port, '127.0.0.1', () => resolve()),
    )
    await new Promise<void>((resolve) => server.close(() => resolve()))
    expect(await freePort()).not.toBe(port)
  })

  it('gives ports outside the range outgoing connections take theirs from, so none can take it before the server listens', async () => {
    const [low, high] = outgoingPorts()
    for (let i = 0; i < 20; i++) {
      const port = await freePort()
      expect(port < low || port > high, `port ${port} in ${low}–${high}`).toBe(true)
    }
  })
})
