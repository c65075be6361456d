import { PING_RECORD } from './protocol.ts'
import type { ConnectionRegistry } from './connection-registry.ts'
import type { Logger, Timeouts } from './types.ts'

// One timer for all connections (ASP.NET scans once a second; finer when tests shorten the
// timeouts): it pings quiet connections, and ends those that went silent, never finished their
// handshake, or were negotiated and never used.

function tick(connections: ConnectionRegistry, timeouts: Timeouts, logger: Logger): void {
  const now = Date.now()
  for (const conn of connections.all()) {
    if (conn.finished) continue
    const transport = conn.transport
    if (!transport) {
      // Negotiated but never used, e.g. left behind by a client's transport fallback.
      if (now - conn.createdAt >= timeouts.disconnectTimeoutMs) conn.finish()
      continue
    }
    const idleSince = transport.idleSince?.()
    if (idleSince != null && now - idleSince >= timeouts.disconnectTimeoutMs) {
      conn.close()
      transport.terminate()
      continue
    }
    if (conn.closed) continue
    if (!conn.handshaken) {
      if (!conn.handshakeStarted && now - conn.attachedAt >= timeouts.handshakeTimeoutMs)
        conn.closeWithError('Handshake was canceled.', false)
      continue
    }
    // Long polling keeps itself alive: the client neither pings nor times out the server on it.
    if (transport.kind === 'LongPolling') continue
    if (timeouts.clientTimeoutMs > 0 && now - conn.lastReceived >= timeouts.clientTimeoutMs) {
      logger.info({ connectionId: conn.id, address: conn.address }, 'client timed out')
      conn.closeWithError('Connection closed with an error.', true)
      continue
    }
    if (timeouts.keepAliveMs > 0 && now - conn.lastSent >= timeouts.keepAliveMs) conn.writeRaw(PING_RECORD)
  }
}

/** Starts the timer (unref'd: it never keeps the process alive); clear it with clearInterval. */
export function startKeepAlive(connections: ConnectionRegistry, timeouts: Timeouts, logger: Logger) {
  const enabled = [
    timeouts.keepAliveMs,
    timeouts.clientTimeoutMs,
    timeouts.handshakeTimeoutMs,
    timeouts.disconnectTimeoutMs,
  ].filter((v) => v > 0)
  const tickMs = Math.max(5, Math.min(1000, ...enabled.map((v) => v / 4)))
  const ticker = setInterval(() => tick(connections, timeouts, logger), tickMs)
  ticker.unref()
  return ticker
}
